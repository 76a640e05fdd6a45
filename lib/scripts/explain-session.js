#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-VR4M6NOH.js";
import "./chunks/chunk-O3IO7QMO.js";
import {
  runCommand
} from "./chunks/chunk-PFB7UGHB.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
