#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-7Z5ZNZMH.js";
import "./chunks/chunk-NY2GQ6Z4.js";
import {
  runCommand
} from "./chunks/chunk-JYSYW3FP.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
