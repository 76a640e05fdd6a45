#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-APPSSTNP.js";
import "./chunks/chunk-AASFPALT.js";
import "./chunks/chunk-G3ZD3XEC.js";
import "./chunks/chunk-R4VPHYWV.js";
import {
  runCommand
} from "./chunks/chunk-7ESGHU5V.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
