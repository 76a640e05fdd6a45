#!/usr/bin/env node
import {
  PROJECTION_CACHE_FILE,
  cacheTextWithout,
  dropCacheEntryInFile,
  isProjectionCacheWriter,
  rebuildCacheEntry
} from "./chunk-3HXM2AHQ.js";
import "./chunk-X3X63HMT.js";
import "./chunk-V6RYJ4SL.js";
export {
  PROJECTION_CACHE_FILE,
  cacheTextWithout,
  dropCacheEntryInFile,
  isProjectionCacheWriter,
  rebuildCacheEntry
};
