#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-ZUKTAW7A.js";
import "./chunks/chunk-2KZKY5UK.js";
import "./chunks/chunk-WHRTN3DX.js";
import {
  runCommand
} from "./chunks/chunk-CQZM4XYL.js";
import "./chunks/chunk-4ES5VJID.js";
import "./chunks/chunk-NAUXAQBM.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
