#!/usr/bin/env node
import {
  verifyCommand
} from "./chunks/chunk-3UWZ7NVN.js";
import "./chunks/chunk-QTLKHOKV.js";
import {
  runCommand
} from "./chunks/chunk-L2YMFD7L.js";
import "./chunks/chunk-CDZLCCFJ.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/verify-decoder.ts
runCommand(verifyCommand, "node lib/scripts/verify-decoder.js", process.argv.slice(2));
