#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-GOFVWQUG.js";
import "./chunks/chunk-VO67JIYV.js";
import {
  runCommand
} from "./chunks/chunk-GXSN2MKZ.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
