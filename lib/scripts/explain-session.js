#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-M347IHHJ.js";
import "./chunks/chunk-OWJZ6DQ2.js";
import "./chunks/chunk-KPXCRZ22.js";
import {
  runCommand
} from "./chunks/chunk-D72G6GGI.js";
import "./chunks/chunk-NGI44Q4O.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
