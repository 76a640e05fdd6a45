#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-2NHIBCK7.js";
import {
  runCommand
} from "./chunks/chunk-MHILNAR5.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
