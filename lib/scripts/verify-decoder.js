#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-VSXO2FOQ.js";
import {
  runCommand
} from "./chunks/chunk-2LYL33RJ.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
