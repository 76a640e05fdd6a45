#!/usr/bin/env node
import {
  eraseLogFile
} from "./chunk-E6ADNAN6.js";
import "./chunk-KPXCRZ22.js";
import "./chunk-NGI44Q4O.js";
import "./chunk-7XTZCYVL.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile
};
