#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-4J3HWUGM.js";
import "./chunks/chunk-QTLKHOKV.js";
import {
  runCommand
} from "./chunks/chunk-J4GPO2E5.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
