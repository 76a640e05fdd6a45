#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-YDG3EROU.js";
import "./chunks/chunk-NKLKMZXT.js";
import "./chunks/chunk-EHDG4RBN.js";
import {
  runCommand
} from "./chunks/chunk-PFB7UGHB.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
