#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-EIYX6JF7.js";
import "./chunks/chunk-4UXZJK6R.js";
import {
  runCommand
} from "./chunks/chunk-2LYL33RJ.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
