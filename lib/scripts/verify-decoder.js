#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-CHWUWHDI.js";
import "./chunks/chunk-EHDG4RBN.js";
import {
  runCommand
} from "./chunks/chunk-PFB7UGHB.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
