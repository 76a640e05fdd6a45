#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-6P6ASB5J.js";
import "./chunks/chunk-6Q4EBBC4.js";
import {
  runCommand
} from "./chunks/chunk-LKSIC7LO.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
