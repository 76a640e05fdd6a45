#!/usr/bin/env node
import {
  eraseLogFile,
  replaceVerified
} from "./chunk-4BZUXR5E.js";
import "./chunk-7FZFRM56.js";
import "./chunk-EQRBZEXQ.js";
import "./chunk-D6GSHOIP.js";
import "./chunk-ZFDKBUKF.js";
import "./chunk-X3X63HMT.js";
import "./chunk-V6RYJ4SL.js";
export {
  eraseLogFile,
  replaceVerified
};
