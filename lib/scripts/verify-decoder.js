#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-JXOAEFXJ.js";
import "./chunks/chunk-TSNASLY7.js";
import {
  runCommand
} from "./chunks/chunk-JYSYW3FP.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
