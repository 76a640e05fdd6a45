#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-BLSREMFK.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-BCVO4ZIF.js";
import "./chunks/chunk-4ES5VJID.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
