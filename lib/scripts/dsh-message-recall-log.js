#!/usr/bin/env node
import {
  eraseCommand
} from "./chunks/chunk-OMUDX4FM.js";
import {
  explainCommand
} from "./chunks/chunk-RTWY62JI.js";
import {
  listCommand
} from "./chunks/chunk-QXCDYVU7.js";
import {
  readCommand
} from "./chunks/chunk-CRKCG5BD.js";
import {
  scanCommand
} from "./chunks/chunk-MPZNY6NK.js";
import "./chunks/chunk-SOBSVLGM.js";
import "./chunks/chunk-EDLWMPAK.js";
import "./chunks/chunk-EQRBZEXQ.js";
import "./chunks/chunk-D6GSHOIP.js";
import "./chunks/chunk-4C36J76L.js";
import {
  verifyCommand
} from "./chunks/chunk-MQJ3B2T4.js";
import "./chunks/chunk-GAP6BJRR.js";
import {
  EXIT,
  out,
  runCommand,
  runMain
} from "./chunks/chunk-C7U2JD6W.js";
import "./chunks/chunk-ZFDKBUKF.js";
import {
  UsageError
} from "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-V6RYJ4SL.js";

// scripts/dsh-message-recall-log.ts
var BIN = "dsh-message-recall-log";
var COMMANDS = [readCommand, verifyCommand, explainCommand, listCommand, scanCommand, eraseCommand];
var USAGE = `Usage: ${BIN} <command> [arguments] [options]

Tools for DSH session logs (session.jsonl.zstd or session.jsonl). All of them only read, but
erase, which erases one removal for good (stop the host first).

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
