#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-IJIUVSF7.js";
import "./chunks/chunk-Y2D45YV7.js";
import {
  runCommand
} from "./chunks/chunk-XRF2TASW.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
