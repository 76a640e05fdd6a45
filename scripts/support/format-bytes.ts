/**
 * Byte counts for people, in binary units. Pure.
 *
 * @module dsh-message-recall/scripts/support/format-bytes
 */

/**
 * Human size: `512 B`, `1.4 KiB`, `3.2 MiB`, `1.1 GiB`.
 * @param bytes - a byte count.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(1)} ${units[unit]}`
}
