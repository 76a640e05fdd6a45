#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-ZGKWBRJW.js";
import {
  runCommand
} from "./chunks/chunk-JDKWCII7.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
