/**
 * A streaming ZIP writer over `node:zlib`: each entry is deflated whole (raw DEFLATE, the level
 * DSH's own export uses by default, `dsh-host-apiproxy` `sessionExportCompressionLevel` 6), its
 * local header and bytes written at once, and the central directory at the end. Entry names are
 * UTF-8 (general-purpose flag bit 11). No ZIP64: an archive past 4 GiB or 65,535 entries throws.
 *
 * @module dsh-message-recall/host/zip-writer
 */
import { promisify } from 'node:util'
import { crc32, deflateRaw } from 'node:zlib'

const deflate = promisify(deflateRaw)

/** DEFLATE level of every entry (DSH's export default). */
export const ZIP_DEFLATE_LEVEL = 6

const LIMIT_32 = 0xffffffff
const LIMIT_16 = 0xffff

interface CentralRecord {
  readonly name: Buffer
  readonly crc: number
  readonly compressedSize: number
  readonly size: number
  readonly offset: number
}

/** MS-DOS time and date of `when` (local time, 2-second resolution, from 1980). */
function dosTime(when: Date): { time: number; date: number } {
  const year = Math.max(1980, when.getFullYear())
  return {
    time: (when.getHours() << 11) | (when.getMinutes() << 5) | Math.floor(when.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((when.getMonth() + 1) << 5) | when.getDate(),
  }
}

/** Writes one ZIP archive entry by entry through `write`. */
export class ZipWriter {
  private readonly records: CentralRecord[] = []
  private offset = 0
  private readonly stamp: { time: number; date: number }

  /**
   * @param write - takes the next bytes of the archive; resolves when the consumer can take more.
   * @param when - modification time written into every entry (default: now).
   */
  constructor(private readonly write: (bytes: Buffer) => Promise<void>, when: Date = new Date()) {
    this.stamp = dosTime(when)
  }

  private async emit(bytes: Buffer): Promise<void> {
    this.offset += bytes.length
    if (this.offset > LIMIT_32) throw new Error('zip-writer: the archive passes 4 GiB, which needs ZIP64 (not written)')
    await this.write(bytes)
  }

  /**
   * Deflate and write one entry.
   * @param path - the entry name (`/`-separated, UTF-8).
   * @param data - the entry's bytes (a string is written as UTF-8).
   * @throws past 65,535 entries or 4 GiB (no ZIP64).
   */
  async add(path: string, data: Uint8Array | string): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
    if (this.records.length >= LIMIT_16) throw new Error('zip-writer: more than 65535 entries need ZIP64 (not written)')
    if (bytes.length > LIMIT_32) throw new Error(`zip-writer: entry "${path}" passes 4 GiB, which needs ZIP64 (not written)`)
    const compressed = await deflate(bytes, { level: ZIP_DEFLATE_LEVEL })
    const name = Buffer.from(path, 'utf8')
    const record: CentralRecord = { name, crc: crc32(bytes) >>> 0, compressedSize: compressed.length, size: bytes.length, offset: this.offset }
    const header = Buffer.alloc(30)
    header.writeUInt32LE(0x04034b50, 0)
    header.writeUInt16LE(20, 4)
    header.writeUInt16LE(0x0800, 6)
    header.writeUInt16LE(8, 8)
    header.writeUInt16LE(this.stamp.time, 10)
    header.writeUInt16LE(this.stamp.date, 12)
    header.writeUInt32LE(record.crc, 14)
    header.writeUInt32LE(record.compressedSize, 18)
    header.writeUInt32LE(record.size, 22)
    header.writeUInt16LE(name.length, 26)
    header.writeUInt16LE(0, 28)
    await this.emit(Buffer.concat([header, name, compressed]))
    this.records.push(record)
  }

  /** Write the central directory and its end record; nothing may be added afterwards. */
  async finish(): Promise<void> {
    const start = this.offset
    const parts: Buffer[] = []
    for (const record of this.records) {
      const entry = Buffer.alloc(46)
      entry.writeUInt32LE(0x02014b50, 0)
      entry.writeUInt16LE(20, 4)
      entry.writeUInt16LE(20, 6)
      entry.writeUInt16LE(0x0800, 8)
      entry.writeUInt16LE(8, 10)
      entry.writeUInt16LE(this.stamp.time, 12)
      entry.writeUInt16LE(this.stamp.date, 14)
      entry.writeUInt32LE(record.crc, 16)
      entry.writeUInt32LE(record.compressedSize, 20)
      entry.writeUInt32LE(record.size, 24)
      entry.writeUInt16LE(record.name.length, 28)
      entry.writeUInt32LE(record.offset, 42)
      parts.push(entry, record.name)
    }
    const directory = Buffer.concat(parts)
    const end = Buffer.alloc(22)
    end.writeUInt32LE(0x06054b50, 0)
    end.writeUInt16LE(this.records.length, 8)
    end.writeUInt16LE(this.records.length, 10)
    end.writeUInt32LE(directory.length, 12)
    end.writeUInt32LE(start, 16)
    await this.emit(Buffer.concat([directory, end]))
  }
}
