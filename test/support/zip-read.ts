/**
 * Reads a whole ZIP archive from its central directory (stored and DEFLATE entries, no ZIP64),
 * checking each entry's CRC-32 and size, for the tests of the export archives. Written to the
 * APPNOTE layout only, so it reads DSH's own export (written by fflate) and the plugin's alike.
 *
 * @module test/support/zip-read
 */
import { crc32, inflateRawSync } from 'node:zlib'

/** One archive entry: its name and its bytes. */
export interface ZipEntry {
  readonly path: string
  readonly data: Buffer
}

/**
 * Read every entry of an archive.
 * @param archive - the archive's bytes.
 * @returns the entries in central-directory order.
 * @throws `zip-read: …` when the archive is not a ZIP, uses a method other than 0 or 8, or an
 * entry's size or CRC-32 does not match.
 */
export function readZip(archive: Buffer): ZipEntry[] {
  let end = -1
  for (let i = archive.length - 22; i >= 0; i--) {
    if (archive.readUInt32LE(i) === 0x06054b50) { end = i; break }
  }
  if (end < 0) throw new Error('zip-read: no end of central directory record')
  const count = archive.readUInt16LE(end + 10)
  let at = archive.readUInt32LE(end + 16)
  const entries: ZipEntry[] = []
  for (let n = 0; n < count; n++) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error(`zip-read: bad central directory entry ${n}`)
    const method = archive.readUInt16LE(at + 10)
    const crc = archive.readUInt32LE(at + 16)
    const compressedSize = archive.readUInt32LE(at + 20)
    const size = archive.readUInt32LE(at + 24)
    const nameLength = archive.readUInt16LE(at + 28)
    const extraLength = archive.readUInt16LE(at + 30)
    const commentLength = archive.readUInt16LE(at + 32)
    const local = archive.readUInt32LE(at + 42)
    const path = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8')
    if (archive.readUInt32LE(local) !== 0x04034b50) throw new Error(`zip-read: bad local header of ${path}`)
    const dataStart = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28)
    const raw = archive.subarray(dataStart, dataStart + compressedSize)
    if (method !== 0 && method !== 8) throw new Error(`zip-read: ${path} uses method ${method}`)
    const data = method === 8 ? inflateRawSync(raw) : Buffer.from(raw)
    if (data.length !== size) throw new Error(`zip-read: ${path} is ${data.length} bytes, the directory says ${size}`)
    if ((crc32(data) >>> 0) !== crc) throw new Error(`zip-read: ${path} fails its CRC-32`)
    entries.push({ path, data })
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}
