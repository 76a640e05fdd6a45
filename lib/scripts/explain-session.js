#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-EYEJIWG2.js";
import "./chunks/chunk-3YK22VMN.js";
import "./chunks/chunk-EDLWMPAK.js";
import "./chunks/chunk-74NHG445.js";
import {
  runCommand
} from "./chunks/chunk-C7U2JD6W.js";
import "./chunks/chunk-ZFDKBUKF.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
