#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-XTQ5ALYC.js";
import "./chunks/chunk-BDTQVWH5.js";
import {
  runCommand
} from "./chunks/chunk-SCZ5GRMK.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
