#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-ZKRFCYQ2.js";
import {
  runCommand
} from "./chunks/chunk-6FPHHE67.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
