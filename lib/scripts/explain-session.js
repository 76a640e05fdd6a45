#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-54GQSMKK.js";
import "./chunks/chunk-AASFPALT.js";
import {
  runCommand
} from "./chunks/chunk-7ESGHU5V.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
