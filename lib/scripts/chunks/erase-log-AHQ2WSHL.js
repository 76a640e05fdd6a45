#!/usr/bin/env node
import {
  eraseLogFile
} from "./chunk-AJZ7DXXG.js";
import "./chunk-KPXCRZ22.js";
import "./chunk-NGI44Q4O.js";
import "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile
};
