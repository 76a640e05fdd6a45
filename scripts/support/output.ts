/**
 * Writing to stdout without unbounded buffering: waiting while the pipe is full, and large
 * outputs collected into 1 MiB chunks. Node only (process).
 *
 * @module dsh-message-recall/scripts/support/output
 */

/** Bytes per write to stdout. */
const OUTPUT_CHUNK_BYTES = 1024 * 1024

/**
 * Output collected in large chunks and written to stdout a chunk at a time, so a log of millions
 * of lines takes a few hundred writes, not millions. Bytes are copied in; call {@link drain}
 * where waiting is allowed (after each batch of frames) and {@link end} once at the end.
 */
export class ChunkedOutput {
  private buffer = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES)
  private used = 0
  private readonly ready: Buffer[] = []
  /** Whether a value was already written in {@link addJsonLines} mode (for the commas). */
  private valuesWritten = false

  /** Append bytes. */
  add(bytes: Uint8Array): void {
    let from = 0
    while (from < bytes.length) {
      const n = Math.min(bytes.length - from, this.buffer.length - this.used)
      this.buffer.set(bytes.subarray(from, from + n), this.used)
      this.used += n
      from += n
      if (this.used === this.buffer.length) this.rotate()
    }
  }

  /** Append text as UTF-8. */
  addText(text: string): void {
    if (text.length * 3 <= this.buffer.length - this.used) this.used += this.buffer.write(text, this.used)
    else this.add(Buffer.from(text))
  }

  /**
   * Append whole lines (each ending in a line break) as members of a JSON array: each line is one
   * JSON value, written with a comma before it unless it is the first.
   */
  addJsonLines(lines: Uint8Array): void {
    if (lines.length === 0) return
    if (this.valuesWritten) this.addText(',')
    this.valuesWritten = true
    const start = this.used
    const body = lines.subarray(0, lines.length - 1)
    if (body.length <= this.buffer.length - this.used) {
      this.buffer.set(body, this.used)
      this.used += body.length
      for (let i = this.buffer.indexOf(0x0a, start); i !== -1 && i < this.used; i = this.buffer.indexOf(0x0a, i + 1)) this.buffer[i] = 0x2c
    } else {
      const copy = Buffer.from(body)
      for (let i = copy.indexOf(0x0a); i !== -1; i = copy.indexOf(0x0a, i + 1)) copy[i] = 0x2c
      this.add(copy)
    }
  }

  /** Append one JSON value as a member of the array {@link addJsonLines} writes. */
  addJsonValue(text: string): void {
    this.addText(this.valuesWritten ? ',' + text : text)
    this.valuesWritten = true
  }

  private rotate(): void {
    this.ready.push(this.buffer.subarray(0, this.used))
    this.buffer = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES)
    this.used = 0
  }

  /** Write the full chunks, waiting while stdout is congested. */
  async drain(): Promise<void> {
    while (this.ready.length > 0) await outBytes(this.ready.shift()!)
  }

  /** Write everything collected. */
  async end(): Promise<void> {
    if (this.used > 0) this.rotate()
    await this.drain()
  }
}

async function outBytes(bytes: Uint8Array): Promise<void> {
  if (!process.stdout.write(bytes)) await new Promise<void>((resolve) => process.stdout.once('drain', resolve))
}

/**
 * Write to stdout, waiting when the pipe is full (so a large output into `head` or a slow reader
 * neither buffers without bound nor fails).
 * @param text - what to write.
 */
export async function out(text: string): Promise<void> {
  if (!process.stdout.write(text)) await new Promise<void>((resolve) => process.stdout.once('drain', resolve))
}
