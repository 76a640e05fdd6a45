/**
 * DSH's own JSONL reader for the tools that write (`erase`): rc.8's
 * `@deepseek-ai/dsh-session-persistence-jsonl` `JsonlSessionPersistence`, its prototype over a
 * compression (no host, no cordis context: `readPrefix` reads a file with the backend's frame
 * walk, checksums, header and record checks). Loaded when needed, so the read-only tools keep
 * running without DSH's packages; the invariant companions the check of the new log runs under
 * (`src/host/invariant-load.ts`) are checked to load here too, so a missing one is a usage error.
 *
 * @module dsh-message-recall/scripts/support/dsh-reader
 */
import type { JsonlReader } from '../../src/host/jsonl-log-file'
import { UsageLineError } from './usage-errors'

/**
 * The backend's reader over a compression.
 * @param compression - `'zstd'` (`session.jsonl.zstd`) or `'none'` (`session.jsonl`).
 * @returns a {@link JsonlReader}.
 * @throws UsageLineError when DSH's packages cannot be loaded from here (run the tool from the
 *   plugin's folder inside a DSH install, or from a checkout after `npm install`).
 */
export async function dshJsonlReader(compression: 'zstd' | 'none'): Promise<JsonlReader> {
  let backend: { JsonlSessionPersistence: { prototype: object } }
  try {
    backend = (await import('@deepseek-ai/dsh-session-persistence-jsonl')) as unknown as typeof backend
    await import('@deepseek-ai/dsh-session')
    // The check of the new log loads it under these (`src/host/invariant-load.ts`).
    await Promise.all([import('@deepseek-ai/cordis'), import('@deepseek-ai/dsh-invariants'), import('@deepseek-ai/dsh-llm'), import('@deepseek-ai/dsh-session/invariant'), import('@deepseek-ai/dsh-compaction/invariant'), import('@deepseek-ai/dsh-agent-loop/invariant')])
  } catch {
    throw new UsageLineError('erase needs DSH 0.1.0-rc.8\'s packages (@deepseek-ai/dsh-session, @deepseek-ai/dsh-session-persistence-jsonl, @deepseek-ai/dsh-invariants, @deepseek-ai/dsh-compaction, @deepseek-ai/dsh-agent-loop); run it where they are installed')
  }
  return Object.create(backend.JsonlSessionPersistence.prototype, {
    compression: { value: compression },
    assertStoredIdentity: { value: async () => {} },
  }) as JsonlReader
}
