#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-GJ5TNMMQ.js";
import "./chunks/chunk-2M7L4GGX.js";
import "./chunks/chunk-IRH6FU2D.js";
import {
  runCommand
} from "./chunks/chunk-MEBNWN5F.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
