#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-QXCDYVU7.js";
import "./chunks/chunk-4C36J76L.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  runCommand
} from "./chunks/chunk-C7U2JD6W.js";
import "./chunks/chunk-ZFDKBUKF.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
