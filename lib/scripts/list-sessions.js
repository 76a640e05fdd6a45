#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-UHXUL6QL.js";
import "./chunks/chunk-RQBDFPSF.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-BCVO4ZIF.js";
import "./chunks/chunk-4ES5VJID.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
