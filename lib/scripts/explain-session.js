#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-K62I62RD.js";
import "./chunks/chunk-AXPFB772.js";
import "./chunks/chunk-74NHG445.js";
import {
  runCommand
} from "./chunks/chunk-C7U2JD6W.js";
import "./chunks/chunk-ZFDKBUKF.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
