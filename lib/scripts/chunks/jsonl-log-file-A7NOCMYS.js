#!/usr/bin/env node
import {
  decodeLogBytes,
  encodeLogText,
  isJsonlBackend,
  publishLogFile,
  readLogAndHeaderWithDsh,
  readLogFileWithDsh,
  removeLeftovers,
  syncDirectory,
  writeBeside
} from "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  decodeLogBytes,
  encodeLogText,
  isJsonlBackend,
  publishLogFile,
  readLogAndHeaderWithDsh,
  readLogFileWithDsh,
  removeLeftovers,
  syncDirectory,
  writeBeside
};
