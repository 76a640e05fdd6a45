#!/usr/bin/env node
import {
  eraseCommand
} from "./chunks/chunk-OMUDX4FM.js";
import {
  runCommand
} from "./chunks/chunk-C7U2JD6W.js";
import "./chunks/chunk-ZFDKBUKF.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/erase-session.ts
runCommand(eraseCommand, "node lib/scripts/erase-session.js", process.argv.slice(2));
