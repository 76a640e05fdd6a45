/**
 * Where the plugin's log lines go. rc.8's `dsh web` registers no exporter on cordis's logger
 * (`@deepseek-ai/cordis` `LoggerService`: a new context has only an in-memory exporter keeping
 * the last 1,000 messages, and a logger's default level, 1, passes `error` and `info` but not
 * `warn`), so a line sent only to `ctx.logger` reaches no terminal and no file. Each line is
 * therefore also written to the host process's standard error, one line each, as given: the
 * terminal running `dsh web` shows it, and `npm start` appends it to `<DSH home>/logs/host.log`
 * (`tools/dsh-host.ts` `startHost` copies the host's output there). `ctx.logger` still receives
 * it, for whatever exporter a host registers.
 *
 * @module dsh-message-recall/host/host-log
 */

/** The logger the plugin writes to (`ctx.logger` of `@deepseek-ai/cordis`). */
export interface CordisLogger {
  warn(message: string): void
  info(message: string): void
}

/** The plugin's two log levels. */
export interface HostLog {
  /** Something did not happen as asked (a write refused for another host, an erase dropped, …). */
  warn(line: string): void
  /** Something was done (an erase at start). */
  info(line: string): void
}

/**
 * A log that writes each line to `logger` and to `stderr`.
 * @param logger - the plugin context's `ctx.logger`.
 * @param stderr - where the line is printed (default: the process's standard error); a failed write is ignored.
 * @returns the log; each line is printed as given, followed by a newline.
 */
export function hostLog(logger: CordisLogger, stderr: { write(text: string): unknown } = process.stderr): HostLog {
  const print = (line: string): void => {
    try {
      stderr.write(`${line}\n`)
    } catch {
      // A closed standard error loses the line; the logger still has it.
    }
  }
  return {
    warn(line) {
      logger.warn(line)
      print(line)
    },
    info(line) {
      logger.info(line)
      print(line)
    },
  }
}
