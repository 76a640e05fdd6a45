#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-4QMG5JOK.js";
import {
  runCommand
} from "./chunks/chunk-M5CJ53PV.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
