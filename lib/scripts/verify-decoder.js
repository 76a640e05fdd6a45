#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-JEWLJOOD.js";
import {
  runCommand
} from "./chunks/chunk-XRF2TASW.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
