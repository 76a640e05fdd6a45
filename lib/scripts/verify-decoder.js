#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-O4TK46U7.js";
import "./chunks/chunk-PAYWE4BP.js";
import {
  runCommand
} from "./chunks/chunk-XJ7EJFSP.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
