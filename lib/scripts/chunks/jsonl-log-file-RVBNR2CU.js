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
} from "./chunk-X3X63HMT.js";
import "./chunk-V6RYJ4SL.js";
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
