#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-OUE2RNFQ.js";
import {
  runCommand
} from "./chunks/chunk-C62STE4U.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
