#!/usr/bin/env node
import {
  listCommand
} from "./chunks/chunk-RPXYLXYT.js";
import "./chunks/chunk-5I2PT7XA.js";
import "./chunks/chunk-PAYWE4BP.js";
import {
  runCommand
} from "./chunks/chunk-XJ7EJFSP.js";

// scripts/list-sessions.ts
runCommand(listCommand, "node lib/scripts/list-sessions.js", process.argv.slice(2));
