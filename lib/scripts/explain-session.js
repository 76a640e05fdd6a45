#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-RTWY62JI.js";
import "./chunks/chunk-SOBSVLGM.js";
import "./chunks/chunk-EDLWMPAK.js";
import "./chunks/chunk-EQRBZEXQ.js";
import "./chunks/chunk-D6GSHOIP.js";
import {
  runCommand
} from "./chunks/chunk-C7U2JD6W.js";
import "./chunks/chunk-ZFDKBUKF.js";
import "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/explain-session.ts
runCommand(explainCommand, "node lib/scripts/explain-session.js", process.argv.slice(2));
