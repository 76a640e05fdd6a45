#!/usr/bin/env node
import {
  eraseCommand
} from "./chunks/chunk-DL35ZX56.js";
import {
  runCommand
} from "./chunks/chunk-D72G6GGI.js";
import "./chunks/chunk-NGI44Q4O.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/erase-session.ts
runCommand(eraseCommand, "node lib/scripts/erase-session.js", process.argv.slice(2));
