#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-FXI7U4AE.js";
import {
  runCommand
} from "./chunks/chunk-LKSIC7LO.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
