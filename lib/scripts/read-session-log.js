#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-I66L6ABO.js";
import "./chunks/chunk-TSNASLY7.js";
import {
  runCommand
} from "./chunks/chunk-JYSYW3FP.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
