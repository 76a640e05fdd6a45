#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-CBTQALB3.js";
import "./chunks/chunk-6Q4EBBC4.js";
import {
  runCommand
} from "./chunks/chunk-LKSIC7LO.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
