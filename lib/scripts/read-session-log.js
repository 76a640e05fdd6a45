#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-CRKCG5BD.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-C7U2JD6W.js";
import "./chunks/chunk-ZFDKBUKF.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
