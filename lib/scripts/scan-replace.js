#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-PD4AZJ2D.js";
import "./chunks/chunk-EXI5LHFJ.js";
import "./chunks/chunk-OKUGGFY4.js";
import "./chunks/chunk-PQVV6EUF.js";
import "./chunks/chunk-AUGGWVGQ.js";
import "./chunks/chunk-PADUCFGV.js";
import "./chunks/chunk-QTLKHOKV.js";
import {
  runCommand
} from "./chunks/chunk-ENKBGR3B.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
