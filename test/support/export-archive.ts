/**
 * Checks shared by the tests of the export without removed messages: a PNG made on the spot (so
 * each test image is a distinct attachment), the events of an archived `session.jsonl` (packed
 * chunk rows expanded), and loading that text with DSH's own JSONL persistence backend.
 *
 * @module test/support/export-archive
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import { JsonlSessionPersistence } from '@deepseek-ai/dsh-session-persistence-jsonl'
import { SessionId, type SessionEvent } from '@deepseek-ai/dsh-session'
import { bootDshApp } from './dsh-app'
import { conversationLog } from './conversation'
import { expandStorageRecord } from '../../src/log/chunk-rows'
import type { LogEvent } from '../../src/shared/events'

/**
 * A 1×1 RGB PNG of one colour.
 * @param rgb - the pixel, three bytes.
 * @returns the PNG file's bytes.
 */
export function onePixelPng(rgb: readonly [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body) >>> 0)
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(1, 0)
  header.writeUInt32BE(1, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, ...rgb]))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/**
 * The events of a JSONL log text, packed chunk rows expanded, by the project's own expansion.
 * @param text - the whole log text (header line first).
 * @returns every event in line order.
 */
export function eventsOfLogText(text: string): LogEvent[] {
  return text.split('\n').slice(1).filter((line) => line !== '').flatMap((line) => expandStorageRecord(JSON.parse(line)))
}

/**
 * Load a log text with DSH's own JSONL backend (`dsh-session-persistence-jsonl`, plain
 * `session.jsonl`) in the real rc.8 composition with the invariant companions: the text is placed
 * where the backend keeps a session of that id, read back with `inspect` (the backend's own reader:
 * header, seq order, packed rows), and opened as a session by resuming an agent on it.
 * @param text - the whole log text.
 * @param id - the session id its header names.
 * @returns the events the backend read, and the messages the resumed session derives.
 * @throws what the backend or the session throws for a log it refuses.
 */
export async function loadWithDshPersistence(text: string, id: string): Promise<{ events: readonly SessionEvent[]; derived: unknown }> {
  const root = mkdtempSync(join(tmpdir(), 'export-load-'))
  try {
    // The backend files a log under a folder derived from the header's cwd: let it make that
    // folder for a session of the same id and cwd, then put the text in its place.
    const cwd = (JSON.parse(text.slice(0, text.indexOf('\n'))) as { cwd?: string }).cwd
    const maker = await bootDshApp({ persistence: { root, compression: 'none' } })
    try {
      await maker.ctx.sessions.flush(maker.createSession({ id, seed: conversationLog([{ prompt: 'placeholder', steps: [{ text: 'placeholder' }] }]), ...(cwd === undefined ? {} : { cwd }) }))
    } finally {
      await maker.dispose()
    }
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    const files = walk(root).filter((f) => f.endsWith(join(id, 'session.jsonl')))
    if (files.length !== 1) throw new Error(`expected one stored log for ${id}, found ${files.length}`)
    writeFileSync(files[0]!, text)
    const app = await bootDshApp({ persistence: { root, compression: 'none' } })
    try {
      const persistence = app.ctx.get('sessionPersistence') as JsonlSessionPersistence
      const events = (await persistence.inspect(SessionId(id))).events
      const agent = await app.resumeAgent(id)
      return { events, derived: JSON.parse(JSON.stringify(agent.session.deriveMessages())) }
    } finally {
      await app.dispose()
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
