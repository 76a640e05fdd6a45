#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-KW7PLR2Q.js";
import {
  runCommand
} from "./chunks/chunk-N6DQFU4V.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
