#!/usr/bin/env node
import {
  eraseCommand
} from "./chunks/chunk-2K2N32DV.js";
import {
  runCommand
} from "./chunks/chunk-CQZM4XYL.js";
import "./chunks/chunk-4ES5VJID.js";
import "./chunks/chunk-NAUXAQBM.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/erase-session.ts
runCommand(eraseCommand, "node lib/scripts/erase-session.js", process.argv.slice(2));
