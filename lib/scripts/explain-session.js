#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-OTGLN4SC.js";
import "./chunks/chunk-IMQP2LIP.js";
import {
  runCommand
} from "./chunks/chunk-MEBNWN5F.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
