#!/usr/bin/env node
import {
  eraseLogFile,
  replaceVerified
} from "./chunk-AOH3LBLC.js";
import "./chunk-K6FFH2PC.js";
import "./chunk-ZFDKBUKF.js";
import "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile,
  replaceVerified
};
