#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-ZQMXTVAS.js";
import "./chunks/chunk-LTHJKI62.js";
import {
  runCommand
} from "./chunks/chunk-QQ42TVSR.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
