#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-FZPLXEL2.js";
import "./chunks/chunk-S46LNZI7.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-CQZM4XYL.js";
import "./chunks/chunk-4ES5VJID.js";
import "./chunks/chunk-NAUXAQBM.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
