#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-Z2KQSS45.js";
import "./chunks/chunk-2KZKY5UK.js";
import "./chunks/chunk-WHRTN3DX.js";
import {
  runCommand
} from "./chunks/chunk-BCVO4ZIF.js";
import "./chunks/chunk-4ES5VJID.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
