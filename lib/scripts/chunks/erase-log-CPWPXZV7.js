#!/usr/bin/env node
import {
  eraseLogFile
} from "./chunk-XDUQDFUX.js";
import "./chunk-MIGLUNE3.js";
import "./chunk-ZFDKBUKF.js";
import "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile
};
