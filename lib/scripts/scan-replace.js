#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-ZDSNKTOU.js";
import "./chunks/chunk-CM4NC5Y4.js";
import {
  runCommand
} from "./chunks/chunk-M5CJ53PV.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
