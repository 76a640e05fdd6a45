#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-J33NUMTI.js";
import "./chunks/chunk-GM4O43YI.js";
import "./chunks/chunk-QTLKHOKV.js";
import {
  runCommand
} from "./chunks/chunk-J4GPO2E5.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
