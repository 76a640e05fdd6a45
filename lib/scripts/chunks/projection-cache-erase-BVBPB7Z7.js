#!/usr/bin/env node
import {
  PROJECTION_CACHE_FILE,
  cacheTextWithout,
  dropCacheEntryInFile,
  isProjectionCacheWriter,
  rebuildCacheEntry
} from "./chunk-FNVPG52S.js";
import "./chunk-IQAOUE36.js";
import "./chunk-V6RYJ4SL.js";
export {
  PROJECTION_CACHE_FILE,
  cacheTextWithout,
  dropCacheEntryInFile,
  isProjectionCacheWriter,
  rebuildCacheEntry
};
