#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-OF5J6UMI.js";
import {
  runCommand
} from "./chunks/chunk-4ESBLEIB.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
