#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-YOAV6IWX.js";
import {
  runCommand
} from "./chunks/chunk-25F4H3OC.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
