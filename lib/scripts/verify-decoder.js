#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-MQH5NWNC.js";
import {
  runCommand
} from "./chunks/chunk-C62STE4U.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
