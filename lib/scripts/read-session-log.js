#!/usr/bin/env node
import {
  readCommand
} from "./chunks/chunk-EH4EXTFK.js";
import "./chunks/chunk-QTLKHOKV.js";
import {
  runCommand
} from "./chunks/chunk-L2YMFD7L.js";
import "./chunks/chunk-CDZLCCFJ.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/read-session-log.ts
runCommand(readCommand, "node lib/scripts/read-session-log.js", process.argv.slice(2));
