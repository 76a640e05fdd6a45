#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-WMMDRUI3.js";
import {
  runCommand
} from "./chunks/chunk-LSDWHSA7.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
