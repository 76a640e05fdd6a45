#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-JN7JYWD4.js";
import "./chunks/chunk-JPHJ5LXW.js";
import {
  runCommand
} from "./chunks/chunk-EZBVU5VJ.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
