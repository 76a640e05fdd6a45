#!/usr/bin/env node
import {
  eraseLogFile,
  replaceVerified
} from "./chunk-QBZXUCOG.js";
import "./chunk-RNBLVZLQ.js";
import "./chunk-ZFDKBUKF.js";
import "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile,
  replaceVerified
};
