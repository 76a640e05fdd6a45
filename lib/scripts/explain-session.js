#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-3VQAPPVC.js";
import "./chunks/chunk-7V2EW6O5.js";
import {
  runCommand
} from "./chunks/chunk-XJ7EJFSP.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
