#!/usr/bin/env node
import {
  scanCommand
} from "./chunks/chunk-IIH7FQ5F.js";
import "./chunks/chunk-3GKEAH2G.js";
import "./chunks/chunk-OKUGGFY4.js";
import "./chunks/chunk-PQVV6EUF.js";
import "./chunks/chunk-WX5GRM77.js";
import "./chunks/chunk-SY74HMQA.js";
import "./chunks/chunk-QTLKHOKV.js";
import {
  runCommand
} from "./chunks/chunk-QRA4O453.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/scan-replace.ts
runCommand(scanCommand, "node lib/scripts/scan-replace.js", process.argv.slice(2));
