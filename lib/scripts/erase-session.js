#!/usr/bin/env node
import {
  eraseCommand
} from "./chunks/chunk-TKAVWRTB.js";
import "./chunks/chunk-LJ2DMLF2.js";
import {
  runCommand
} from "./chunks/chunk-L2YMFD7L.js";
import "./chunks/chunk-CDZLCCFJ.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/erase-session.ts
runCommand(eraseCommand, "node lib/scripts/erase-session.js", process.argv.slice(2));
