#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-RTDFL2AH.js";
import "./chunks/chunk-HXXVSNXF.js";
import {
  runCommand
} from "./chunks/chunk-25F4H3OC.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
