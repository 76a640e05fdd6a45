#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-CG5AF2OO.js";
import "./chunks/chunk-O3IO7QMO.js";
import "./chunks/chunk-NKLKMZXT.js";
import "./chunks/chunk-EHDG4RBN.js";
import {
  runCommand
} from "./chunks/chunk-PFB7UGHB.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
