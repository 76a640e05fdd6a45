#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-ZG3POYBJ.js";
import "./chunks/chunk-IRH6FU2D.js";
import {
  runCommand
} from "./chunks/chunk-MEBNWN5F.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
