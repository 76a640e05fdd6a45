#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-2YT65VSD.js";
import {
  runCommand
} from "./chunks/chunk-SCZ5GRMK.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
