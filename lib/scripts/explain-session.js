#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-4MG3WBJ7.js";
import {
  runCommand
} from "./chunks/chunk-ZIWUEJ4Y.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
