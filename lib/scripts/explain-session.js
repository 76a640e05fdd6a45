#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-4OPZ3VAD.js";
import "./chunks/chunk-CM4NC5Y4.js";
import {
  runCommand
} from "./chunks/chunk-M5CJ53PV.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
