#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-HTGUA4XM.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-CRFN5R4I.js";
import "./chunks/chunk-NGI44Q4O.js";
import "./chunks/chunk-NAUXAQBM.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
