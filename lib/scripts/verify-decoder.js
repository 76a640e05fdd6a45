#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-LZ54AJR4.js";
import {
  runCommand
} from "./chunks/chunk-DCYPK23Y.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
