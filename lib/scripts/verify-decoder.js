#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-552AZSMF.js";
import {
  runCommand
} from "./chunks/chunk-N6DQFU4V.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
