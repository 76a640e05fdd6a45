#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-JFMI2K7W.js";
import {
  runCommand
} from "./chunks/chunk-ZIWUEJ4Y.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
