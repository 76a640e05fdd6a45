#!/usr/bin/env node
import {
  decodeLogBytes,
  encodeLogText,
  isJsonlBackend,
  publishLogFile,
  readHeaderLine,
  readLogAndHeaderWithDsh,
  readLogFileWithDsh,
  removeLeftovers,
  syncDirectory,
  writeBeside
} from "./chunk-QGGKDB3Q.js";
import "./chunk-2BN4JUMU.js";
export {
  decodeLogBytes,
  encodeLogText,
  isJsonlBackend,
  publishLogFile,
  readHeaderLine,
  readLogAndHeaderWithDsh,
  readLogFileWithDsh,
  removeLeftovers,
  syncDirectory,
  writeBeside
};
