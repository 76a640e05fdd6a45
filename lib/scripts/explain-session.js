#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-AVDMI254.js";
import "./chunks/chunk-6KFY7ZUX.js";
import {
  runCommand
} from "./chunks/chunk-PWKJLAPD.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
