#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-6JKVGTVN.js";
import "./chunks/chunk-AABZB56N.js";
import "./chunks/chunk-OKUGGFY4.js";
import "./chunks/chunk-PQVV6EUF.js";
import "./chunks/chunk-CQSEQX6K.js";
import "./chunks/chunk-GM4O43YI.js";
import "./chunks/chunk-QTLKHOKV.js";
import {
  runCommand
} from "./chunks/chunk-J4GPO2E5.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
