#!/usr/bin/env node

// scripts/support/usage-errors.ts
var UsageError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "UsageError";
  }
};
var OptionError = class extends UsageError {
  /** @param message - what is wrong, naming the option as given (`unknown option --bogus`). */
  constructor(message) {
    super(message);
    this.name = "OptionError";
  }
};
var UsageLineError = class extends UsageError {
  /** @param message - the whole line, naming what was given. */
  constructor(message) {
    super(message);
    this.name = "UsageLineError";
  }
};

export {
  UsageError,
  OptionError,
  UsageLineError
};
