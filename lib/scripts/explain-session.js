#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-HGHCJLLU.js";
import "./chunks/chunk-25E43IZU.js";
import {
  runCommand
} from "./chunks/chunk-4ESBLEIB.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
