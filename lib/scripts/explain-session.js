#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-2F6A3CV2.js";
import {
  runCommand
} from "./chunks/chunk-JDKWCII7.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
