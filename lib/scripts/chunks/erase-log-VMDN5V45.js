#!/usr/bin/env node
import {
  eraseLogFile,
  replaceVerified
} from "./chunk-V7GEYQTO.js";
import "./chunk-DEG42HNT.js";
import "./chunk-PQVV6EUF.js";
import "./chunk-V5F3LECS.js";
import "./chunk-MY2ZCKN5.js";
import "./chunk-QGGKDB3Q.js";
import "./chunk-2BN4JUMU.js";
export {
  eraseLogFile,
  replaceVerified
};
