#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-RGL4ED5P.js";
import "./chunks/chunk-PYZQQELT.js";
import {
  runCommand
} from "./chunks/chunk-4ESBLEIB.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
