#!/usr/bin/env node
import {
  eraseCommand
} from "./chunks/chunk-5F5TKOKG.js";
import "./chunks/chunk-GM4O43YI.js";
import {
  runCommand
} from "./chunks/chunk-J4GPO2E5.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/erase-session.ts
runCommand(eraseCommand, "node lib/scripts/erase-session.js", process.argv.slice(2));
