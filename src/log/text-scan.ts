/**
 * Where a text still occurs on disk: every file under some folders (a DSH home) and DSH's tool
 * output folders in the system's temporary folder (`dsh-spill-*` of `dsh-spill-local`,
 * `dsh-subprocess-*` of `dsh-subprocess-local`). A session log compressed with zstd (told by its
 * first bytes, `log/log-file` `logFormatOf`, whatever its name) is searched decoded (every complete
 * frame); every other file as its bytes. The text is looked for as UTF-8
 * and as it stands inside a JSON string (quotes, backslashes and control characters escaped, as
 * DSH writes its logs). Node only (file system; `node:zlib`'s zstd where this Node has it, else the
portable decoder).
 *
 * @module dsh-message-recall/log/text-scan
 */
import { readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scanZstdFrames } from './zstd-frames'
import { logFormatOf } from './log-file'
import { createFzstdDecoder, type FrameDecoder } from './frame-decoder'
import { createZlibOneshotDecoder } from './frame-decoder-node'

/** One file holding the text. */
export interface TextHit {
  readonly path: string
  /** Occurrences in the file (decoded, for a zstd log). */
  readonly count: number
}

/**
 * DSH's tool output folders in a temporary folder.
 * @param dir - the temporary folder (default `os.tmpdir()`).
 * @returns the `dsh-spill-*` and `dsh-subprocess-*` folders in it, sorted.
 */
export async function toolOutputFolders(dir: string = tmpdir()): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[])
  return names.filter((n) => n.startsWith('dsh-spill-') || n.startsWith('dsh-subprocess-')).sort().map((n) => join(dir, n))
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const files: string[] = []
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) files.push(...(await filesUnder(path)))
    else if (entry.isFile()) files.push(path)
  }
  return files
}

function decoded(bytes: Buffer, decoder: FrameDecoder): Buffer {
  if (logFormatOf(bytes, bytes.length) !== 'zstd') return bytes
  try {
    const scan = scanZstdFrames(bytes)
    return Buffer.concat(scan.frames.filter((f) => f.kind === 'zstd').map((f) => Buffer.from(decoder.decode(bytes, f.start, f.end))))
  } catch {
    return bytes
  }
}

function countIn(haystack: Buffer, needle: Buffer): number {
  let count = 0
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count++
  return count
}

/**
 * Search every file under some folders for a text.
 * @param dirs - folders to walk (missing ones are skipped).
 * @param text - the text (non-empty).
 * @returns the files holding it, in walk order, with their counts.
 */
export async function findTextUnder(dirs: readonly string[], text: string): Promise<TextHit[]> {
  const forms = [...new Set([text, JSON.stringify(text).slice(1, -1)])].map((t) => Buffer.from(t, 'utf8'))
  const hits: TextHit[] = []
  // `node:zlib` where this Node has zstd (22.15 and later), else the portable decoder.
  const decoder = createZlibOneshotDecoder() ?? (await createFzstdDecoder())
  try {
    for (const dir of dirs) {
      for (const path of await filesUnder(dir)) {
        const bytes = await readFile(path).catch(() => null)
        if (bytes === null) continue
        const data = decoded(bytes, decoder)
        const count = Math.max(...forms.map((form) => countIn(data, form)))
        if (count > 0) hits.push({ path, count })
      }
    }
  } finally {
    decoder.close()
  }
  return hits
}
