#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-MQJ3B2T4.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-C7U2JD6W.js";
import "./chunks/chunk-ZFDKBUKF.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
