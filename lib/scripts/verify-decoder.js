#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-EWNTY7P3.js";
import "./chunks/chunk-IRH6FU2D.js";
import {
  runCommand
} from "./chunks/chunk-MEBNWN5F.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
