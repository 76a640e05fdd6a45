/** Types of tools/dsh-host.mjs for the TypeScript end-to-end suite. */
import type { ChildProcess } from 'node:child_process'

export const PROJECT_ROOT: string
export const HOST_DIR: string
export const DSH_BIN: string
export const PNPM_BIN_DIR: string
export const EXIT_WITH_PARENT: string
export const PLUGIN_NAME: string

export interface ModelEndpoint { baseURL: string; apiKey: string }

export interface RunningHost {
  /** http://127.0.0.1:<port>, from the host's `dsh web: <url>` line */
  url: string
  pid: number
  child: ChildProcess
  /** Resolves when the process exits. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Last `n` lines of the host's stdout and stderr (default 60). */
  logTail(n?: number): string
  /** SIGTERM by pid, SIGKILL after `graceMs` (default 15 s). */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | null>
  readonly exited: { code: number | null; signal: NodeJS.Signals | null } | null
}

export function assertNode22(): void
export function hostInstalled(): boolean
export function ensureHostInstalled(options?: { log?: (line: string) => void; quiet?: boolean }): boolean
export function hostEnv(options: { dshHome: string; model?: ModelEndpoint }): NodeJS.ProcessEnv
export function profileManifest(dshHome: string): string
export function pluginAdded(dshHome: string, pluginDir?: string): boolean
export function addPlugin(options: { dshHome: string; pluginDir?: string; log?: (line: string) => void }): boolean
/**
 * Start `dsh web` on 127.0.0.1 (own process group; stops itself when the caller is gone).
 * Rejects with the log tail when it exits or prints no URL in `timeoutMs`, after stopping it;
 * a taken port gives an Error with `code: 'EADDRINUSE'` and `port`.
 */
export function startHost(options: {
  dshHome: string
  port?: number
  model?: ModelEndpoint
  logFile?: string
  cwd?: string
  timeoutMs?: number
  echo?: boolean
  /** Called with the child right after spawn, before the host is up. */
  onSpawn?: (child: ChildProcess) => void
}): Promise<RunningHost>
