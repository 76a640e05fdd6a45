#!/usr/bin/env node
import {
  eraseCommand
} from "./chunks/chunk-TKAVWRTB.js";
import {
  explainCommand
} from "./chunks/chunk-UARE2UGV.js";
import {
  listCommand
} from "./chunks/chunk-IOKQFB42.js";
import {
  readCommand
} from "./chunks/chunk-EH4EXTFK.js";
import {
  scanCommand
} from "./chunks/chunk-WBLQTOKN.js";
import "./chunks/chunk-QDRG7ERN.js";
import "./chunks/chunk-OKUGGFY4.js";
import "./chunks/chunk-PQVV6EUF.js";
import "./chunks/chunk-V5F3LECS.js";
import "./chunks/chunk-LJ2DMLF2.js";
import {
  verifyCommand
} from "./chunks/chunk-3UWZ7NVN.js";
import "./chunks/chunk-QTLKHOKV.js";
import {
  EXIT,
  out,
  runCommand,
  runMain
} from "./chunks/chunk-L2YMFD7L.js";
import "./chunks/chunk-CDZLCCFJ.js";
import "./chunks/chunk-MY2ZCKN5.js";
import {
  UsageError
} from "./chunks/chunk-KEICUTLP.js";
import "./chunks/chunk-2BN4JUMU.js";

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
