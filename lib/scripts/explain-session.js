#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-MUKX75F7.js";
import "./chunks/chunk-OWJZ6DQ2.js";
import "./chunks/chunk-KPXCRZ22.js";
import {
  runCommand
} from "./chunks/chunk-CRFN5R4I.js";
import "./chunks/chunk-NGI44Q4O.js";
import "./chunks/chunk-NAUXAQBM.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
