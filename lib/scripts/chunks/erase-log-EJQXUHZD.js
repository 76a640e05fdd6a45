#!/usr/bin/env node
import {
  eraseLogFile
} from "./chunk-4H6LYUBJ.js";
import "./chunk-WHRTN3DX.js";
import "./chunk-4ES5VJID.js";
import "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile
};
