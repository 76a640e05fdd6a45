#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-3ZUET7NG.js";
import "./chunks/chunk-2PR2WRSM.js";
import {
  runCommand
} from "./chunks/chunk-DCYPK23Y.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
