#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-S4NYUBO3.js";
import "./chunks/chunk-IMQP2LIP.js";
import "./chunks/chunk-2M7L4GGX.js";
import "./chunks/chunk-IRH6FU2D.js";
import {
  runCommand
} from "./chunks/chunk-MEBNWN5F.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
