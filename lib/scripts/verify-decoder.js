#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-P2SHLAQH.js";
import {
  runCommand
} from "./chunks/chunk-GXSN2MKZ.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
