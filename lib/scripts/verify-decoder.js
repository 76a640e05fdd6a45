#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-NDIOH3LN.js";
import "./chunks/chunk-R4VPHYWV.js";
import {
  runCommand
} from "./chunks/chunk-7ESGHU5V.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
