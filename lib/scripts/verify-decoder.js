#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-3L5MUXX2.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-D72G6GGI.js";
import "./chunks/chunk-NGI44Q4O.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
