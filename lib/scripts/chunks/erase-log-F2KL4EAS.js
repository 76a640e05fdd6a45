#!/usr/bin/env node
import {
  eraseLogFile
} from "./chunk-KZP5P7FT.js";
import "./chunk-KPXCRZ22.js";
import "./chunk-NGI44Q4O.js";
import "./chunk-7XTZCYVL.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile
};
