#!/usr/bin/env node
import {
  decodeLogBytes,
  encodeLogText,
  isJsonlBackend,
  publishLogFile,
  readLogFileWithDsh,
  syncDirectory,
  writeBeside
} from "./chunk-INA2JNGV.js";
import "./chunk-V6RYJ4SL.js";
export {
  decodeLogBytes,
  encodeLogText,
  isJsonlBackend,
  publishLogFile,
  readLogFileWithDsh,
  syncDirectory,
  writeBeside
};
