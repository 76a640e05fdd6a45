#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-MC3SOIO2.js";
import "./chunks/chunk-7QUY7IBV.js";
import {
  runCommand
} from "./chunks/chunk-DCYPK23Y.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
