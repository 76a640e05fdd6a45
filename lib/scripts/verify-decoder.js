#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-BYA2XQK6.js";
import {
  runCommand
} from "./chunks/chunk-IWQ5S6R6.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
