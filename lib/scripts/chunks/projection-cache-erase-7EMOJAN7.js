#!/usr/bin/env node
import {
  PROJECTION_CACHE_FILE,
  cacheTextWithout,
  dropCacheEntryInFile,
  isProjectionCacheWriter,
  rebuildCacheEntry
} from "./chunk-7QKTMCDM.js";
import "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  PROJECTION_CACHE_FILE,
  cacheTextWithout,
  dropCacheEntryInFile,
  isProjectionCacheWriter,
  rebuildCacheEntry
};
