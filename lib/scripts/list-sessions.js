#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-IOKQFB42.js";
import "./chunks/chunk-LJ2DMLF2.js";
import "./chunks/chunk-QTLKHOKV.js";
import {
  runCommand
} from "./chunks/chunk-L2YMFD7L.js";
import "./chunks/chunk-CDZLCCFJ.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
