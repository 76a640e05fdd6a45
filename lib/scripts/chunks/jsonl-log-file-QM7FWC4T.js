#!/usr/bin/env node
import {
  decodeLogBytes,
  encodeLogText,
  isJsonlBackend,
  publishLogFile,
  readLogFileWithDsh,
  removeLeftovers,
  syncDirectory,
  writeBeside
} from "./chunk-7XTZCYVL.js";
import "./chunk-V6RYJ4SL.js";
export {
  decodeLogBytes,
  encodeLogText,
  isJsonlBackend,
  publishLogFile,
  readLogFileWithDsh,
  removeLeftovers,
  syncDirectory,
  writeBeside
};
