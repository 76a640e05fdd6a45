#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-OVODMCRY.js";
import "./chunks/chunk-JKFB67OM.js";
import {
  runCommand
} from "./chunks/chunk-LSDWHSA7.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
