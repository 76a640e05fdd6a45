#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-R3FJ3OSI.js";
import "./chunks/chunk-54LMBLXU.js";
import {
  runCommand
} from "./chunks/chunk-6FPHHE67.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
