#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-G35EMF4H.js";
import {
  runCommand
} from "./chunks/chunk-PWKJLAPD.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
