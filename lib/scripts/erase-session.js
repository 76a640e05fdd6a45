#!/usr/bin/env node
import {
  eraseCommand
} from "./chunks/chunk-NGZSCW3Z.js";
import {
  runCommand
} from "./chunks/chunk-CRFN5R4I.js";
import "./chunks/chunk-NGI44Q4O.js";
import "./chunks/chunk-NAUXAQBM.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/erase-session.ts
runCommand(eraseCommand, "node lib/scripts/erase-session.js", process.argv.slice(2));
