#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-X7LVJXQJ.js";
import "./chunks/chunk-PAYWE4BP.js";
import {
  runCommand
} from "./chunks/chunk-XJ7EJFSP.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
