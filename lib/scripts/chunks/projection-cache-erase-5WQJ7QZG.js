#!/usr/bin/env node
import {
  PROJECTION_CACHE_FILE,
  cacheTextWithout,
  dropCacheEntryInFile,
  isProjectionCacheWriter,
  rebuildCacheEntry
} from "./chunk-Z2QFDVMA.js";
import "./chunk-QGGKDB3Q.js";
import "./chunk-2BN4JUMU.js";
export {
  PROJECTION_CACHE_FILE,
  cacheTextWithout,
  dropCacheEntryInFile,
  isProjectionCacheWriter,
  rebuildCacheEntry
};
