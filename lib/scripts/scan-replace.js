#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-VLMKKHSB.js";
import "./chunks/chunk-7V2EW6O5.js";
import "./chunks/chunk-5I2PT7XA.js";
import "./chunks/chunk-PAYWE4BP.js";
import {
  runCommand
} from "./chunks/chunk-XJ7EJFSP.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
