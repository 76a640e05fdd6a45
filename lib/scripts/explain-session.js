#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-B5DWJKAT.js";
import "./chunks/chunk-LLD7OWQ3.js";
import {
  runCommand
} from "./chunks/chunk-QQ42TVSR.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
