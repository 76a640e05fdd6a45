#!/usr/bin/env node
import {
  explainCommand
} from "./chunks/chunk-54GQSMKK.js";
import {
  listCommand
} from "./chunks/chunk-GW2MU7MZ.js";
import {
  readCommand
} from "./chunks/chunk-G4GJS25I.js";
import {
  scanCommand
} from "./chunks/chunk-APPSSTNP.js";
import "./chunks/chunk-AASFPALT.js";
import "./chunks/chunk-G3ZD3XEC.js";
import {
  verifyCommand
} from "./chunks/chunk-NDIOH3LN.js";
import "./chunks/chunk-R4VPHYWV.js";
import {
  EXIT,
  UsageError,
  out,
  runCommand,
  runMain
} from "./chunks/chunk-7ESGHU5V.js";

// scripts/dsh-message-recall-log.ts
var BIN = "dsh-message-recall-log";
var COMMANDS = [readCommand, verifyCommand, explainCommand, listCommand, scanCommand];
var USAGE = `Usage: ${BIN} <command> [arguments] [options]

Read-only tools for DSH session logs (session.jsonl.zstd or session.jsonl). They never write.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(9)} ${c.summary}`).join("\n")}

Run ${BIN} <command> --help for its arguments and options. Each command is also a script of
its own: ${COMMANDS.map((c) => `${c.script}.js`).join(", ")} in lib/scripts/.

Exit codes: 0 nothing wrong; 1 the tool ran and found a problem; 2 bad usage or unreadable input.
`;
var [name, ...rest] = process.argv.slice(2);
var command = COMMANDS.find((c) => c.name === name);
if (command !== void 0) {
  runCommand(command, `${BIN} ${command.name}`, rest);
} else {
  runMain(USAGE, async () => {
    if (name === "-h" || name === "--help" || name === "help") {
      await out(USAGE);
      return EXIT.ok;
    }
    throw new UsageError(name === void 0 ? "missing command" : `unknown command "${name}" (one of ${COMMANDS.map((c) => c.name).join(", ")})`);
  });
}
