/** Types of tools/dsh-api.mjs for the TypeScript end-to-end suite. */

/** A raw session event as `session.history` returns it. */
export interface WireEvent {
  type: string
  seq: number
  time: number
  data: any
  surfaceOp?: unknown
  sourceEventSeqs?: number[]
}

export function rpc(url: string, method: string, payload: object): Promise<any>
export function createSession(url: string, cwd: string): Promise<string>
export function prompt(url: string, sessionId: string, text: string): Promise<unknown>
export function listSessions(url: string): Promise<Array<{ sessionId: string; updatedAt: number; running: boolean; cwd?: string }>>
export function history(url: string, sessionId: string): Promise<WireEvent[]>
export function waitForTurnEnds(url: string, sessionId: string, count: number, timeoutMs?: number): Promise<void>
export function findSessionDir(dshHome: string, sessionId: string): string | undefined
