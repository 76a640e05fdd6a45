#!/usr/bin/env node
import {
  eraseLogFile
} from "./chunk-X5PLYEDV.js";
import "./chunk-C3LPCJEW.js";
import "./chunk-ZFDKBUKF.js";
import "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile
};
