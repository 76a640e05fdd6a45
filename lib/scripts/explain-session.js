#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-UARE2UGV.js";
import "./chunks/chunk-QDRG7ERN.js";
import "./chunks/chunk-OKUGGFY4.js";
import "./chunks/chunk-PQVV6EUF.js";
import "./chunks/chunk-V5F3LECS.js";
import {
  runCommand
} from "./chunks/chunk-L2YMFD7L.js";
import "./chunks/chunk-CDZLCCFJ.js";
import "./chunks/chunk-MY2ZCKN5.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
