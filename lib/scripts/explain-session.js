#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-LF2UGT4X.js";
import "./chunks/chunk-W5MDXEH4.js";
import {
  runCommand
} from "./chunks/chunk-IWQ5S6R6.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
