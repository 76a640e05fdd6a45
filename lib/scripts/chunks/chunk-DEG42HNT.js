#!/usr/bin/env node

// src/shared/error-text.ts
function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

export {
  errorText
};
