#!/usr/bin/env node
import {
  eraseLogFile
} from "./chunk-AHYXG4EM.js";
import "./chunk-KPXCRZ22.js";
import "./chunk-NGI44Q4O.js";
import "./chunk-INA2JNGV.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile
};
