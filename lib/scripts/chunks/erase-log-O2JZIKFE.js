#!/usr/bin/env node
import {
  eraseLogFile
} from "./chunk-DGTDYRVS.js";
import "./chunk-AJV243OD.js";
import "./chunk-ZFDKBUKF.js";
import "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile
};
