#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-WW7IMTU7.js";
import {
  runCommand
} from "./chunks/chunk-EZBVU5VJ.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
