#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-RF7B2WBI.js";
import "./chunks/chunk-NC7LQHC4.js";
import "./chunks/chunk-AJV243OD.js";
import {
  runCommand
} from "./chunks/chunk-C7U2JD6W.js";
import "./chunks/chunk-ZFDKBUKF.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
