#!/usr/bin/env node
import {
  eraseLogFile,
  replaceVerified
} from "./chunk-HM7PB4UF.js";
import "./chunk-74NHG445.js";
import "./chunk-ZFDKBUKF.js";
import "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile,
  replaceVerified
};
