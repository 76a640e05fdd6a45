#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-HDRPJ6OY.js";
import "./chunks/chunk-W5MDXEH4.js";
import {
  runCommand
} from "./chunks/chunk-IWQ5S6R6.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
