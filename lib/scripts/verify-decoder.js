#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-FXBE4KO2.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-CQZM4XYL.js";
import "./chunks/chunk-4ES5VJID.js";
import "./chunks/chunk-NAUXAQBM.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
