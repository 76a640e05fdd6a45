#!/usr/bin/env node
import {
  eraseLogFile
} from "./chunk-AHBQDTFF.js";
import "./chunk-E6AR6RIN.js";
import "./chunk-ZFDKBUKF.js";
import "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile
};
