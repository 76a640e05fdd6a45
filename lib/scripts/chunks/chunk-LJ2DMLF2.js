#!/usr/bin/env node
import {
  DSH_HOME_RULE,
  SESSIONS_ROOT_RULE
} from "./chunk-L2YMFD7L.js";
import {
  SessionLogInputError
} from "./chunk-CDZLCCFJ.js";

// scripts/support/sessions-root.ts
import { stat } from "node:fs/promises";
async function assertRoot(root, defaulted) {
  try {
    await assertFolder(root);
  } catch (error) {
    if (!defaulted || !(error instanceof SessionLogInputError)) throw error;
    throw new SessionLogInputError(`no sessions root given, and the default ${root} (${SESSIONS_ROOT_RULE}) is not a readable folder: ${error.message}`, error.code);
  }
}
async function assertHome(home, defaulted) {
  try {
    await assertFolder(home);
  } catch (error) {
    if (!defaulted || !(error instanceof SessionLogInputError)) throw error;
    throw new SessionLogInputError(`no DSH home given, and the default ${home} (${DSH_HOME_RULE}) is not a readable folder: ${error.message}`, error.code);
  }
}
async function assertFolder(root) {
  let isDirectory;
  try {
    isDirectory = (await stat(root)).isDirectory();
  } catch (error) {
    const code = error.code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new SessionLogInputError(`no such file or folder: ${root}`, "not-found");
    throw new SessionLogInputError(`cannot read ${root}: ${error.message}`, "unreadable");
  }
  if (!isDirectory) throw new SessionLogInputError(`${root} is not a folder`, "not-a-log");
}

export {
  assertRoot,
  assertHome,
  assertFolder
};
