#!/usr/bin/env node
import {
  eraseLogFile,
  replaceVerified
} from "./chunk-TOXAO7SZ.js";
import "./chunk-UBSFNVQQ.js";
import "./chunk-PQVV6EUF.js";
import "./chunk-AUGGWVGQ.js";
import "./chunk-MY2ZCKN5.js";
import "./chunk-QGGKDB3Q.js";
import "./chunk-2BN4JUMU.js";
export {
  eraseLogFile,
  replaceVerified
};
