#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-SYHCJFNI.js";
import {
  runCommand
} from "./chunks/chunk-MHILNAR5.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
