#!/usr/bin/env node
import {
  eraseCommand
} from "./chunks/chunk-QNAZX2W2.js";
import {
  runCommand
} from "./chunks/chunk-BCVO4ZIF.js";
import "./chunks/chunk-4ES5VJID.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/erase-session.ts
runCommand(eraseCommand, "node lib/scripts/erase-session.js", process.argv.slice(2));
