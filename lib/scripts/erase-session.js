#!/usr/bin/env node
import {
  eraseCommand
} from "./chunks/chunk-KC2PQI3W.js";
import "./chunks/chunk-SY74HMQA.js";
import {
  runCommand
} from "./chunks/chunk-QRA4O453.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/erase-session.ts
runCommand(eraseCommand, "node lib/scripts/erase-session.js", process.argv.slice(2));
