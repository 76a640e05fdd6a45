#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-HB6FP4YK.js";
import "./chunks/chunk-U6DDOOOH.js";
import "./chunks/chunk-K6FFH2PC.js";
import {
  runCommand
} from "./chunks/chunk-C7U2JD6W.js";
import "./chunks/chunk-ZFDKBUKF.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
