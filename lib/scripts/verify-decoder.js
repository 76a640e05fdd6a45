#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-4GXRY2TT.js";
import {
  runCommand
} from "./chunks/chunk-QQ42TVSR.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
