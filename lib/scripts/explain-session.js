#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-F3XLNPK7.js";
import "./chunks/chunk-RWUM5PL7.js";
import {
  runCommand
} from "./chunks/chunk-4ESBLEIB.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
