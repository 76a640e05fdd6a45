#!/usr/bin/env node
import {
  eraseLogFile
} from "./chunk-HJ6GGMEX.js";
import "./chunk-KPXCRZ22.js";
import "./chunk-NGI44Q4O.js";
import "./chunk-FZCWFOZA.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile
};
