/**
 * Plugin configuration: the schemastery `Config` the Loader validates with, the frozen
 * `DEFAULTS`, and `resolveConfig`, which fails loud at load on unknown keys and bad values.
 *
 * @module dsh-message-recall/host/config
 */
import z from '@deepseek-ai/schemastery'
import { DEFAULT_ROUTE_PATH } from '../shared/protocol'

/** Resolved plugin configuration. */
export interface MessageRecallConfig {
  /** Exact pathname of the POST route; absolute, no trailing slash, no query. */
  readonly path: string
  /** Largest accepted request body in bytes; a larger body is answered 413 without reading it all. */
  readonly maxBodyBytes: number
  /** Text of the tombstone's one text block; `''` writes an empty-content tombstone. */
  readonly tombstoneText: string
  /**
   * Accepted `Host` header values: a host name (`localhost`, `127.0.0.1`, `[::1]`) matches on any
   * port, a `host:port` authority matches exactly. Compared case-insensitively.
   */
  readonly trustedHosts: readonly string[]
}

/** Default configuration (frozen). */
export const DEFAULTS: MessageRecallConfig = Object.freeze({
  path: DEFAULT_ROUTE_PATH,
  maxBodyBytes: 65536,
  tombstoneText: '',
  trustedHosts: Object.freeze(['localhost', '127.0.0.1', '[::1]']),
})

/** Keys the configuration accepts. */
export const CONFIG_KEYS = ['path', 'maxBodyBytes', 'tombstoneText', 'trustedHosts'] as const

/** The schemastery schema (field types and defaults); `resolveConfig` adds the rest. */
export const Config: z<Partial<MessageRecallConfig>, MessageRecallConfig> = z.object({
  path: z.string().default(DEFAULTS.path).description('Exact pathname of the POST route.'),
  maxBodyBytes: z.natural().min(1).default(DEFAULTS.maxBodyBytes).description('Largest accepted request body, in bytes.'),
  tombstoneText: z.string().default(DEFAULTS.tombstoneText).description('Text of the tombstone message; empty writes no content.'),
  trustedHosts: z.array(z.string()).default([...DEFAULTS.trustedHosts]).description('Accepted Host header values (loopback only by default).'),
}) as unknown as z<Partial<MessageRecallConfig>, MessageRecallConfig>

const HOST_PATTERN = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::[0-9]{1,5})?$/

/**
 * Validate and freeze a configuration.
 * @param raw - the plugin config as the Loader passes it (schema defaults applied), or partial input.
 * @returns a deep-frozen {@link MessageRecallConfig}; absent keys take `DEFAULTS`.
 * @throws `MessageRecallConfig: unknown key "<key>" (allowed: …)`, or a message naming the bad
 * field and value.
 */
export function resolveConfig(raw: unknown): MessageRecallConfig {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw new Error(`MessageRecallConfig: expected an object, got ${JSON.stringify(raw)}`)
  }
  const input = (raw ?? {}) as Record<string, unknown>
  for (const key of Object.keys(input)) {
    if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
      throw new Error(`MessageRecallConfig: unknown key "${key}" (allowed: ${CONFIG_KEYS.join(', ')})`)
    }
  }
  const path = input.path ?? DEFAULTS.path
  if (typeof path !== 'string' || !/^\/[^?#\s]*$/.test(path) || (path.length > 1 && path.endsWith('/'))) {
    throw new Error(`MessageRecallConfig: path (${JSON.stringify(path)}) must be an absolute pathname without trailing slash, query or fragment`)
  }
  const maxBodyBytes = input.maxBodyBytes ?? DEFAULTS.maxBodyBytes
  if (typeof maxBodyBytes !== 'number' || !Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new Error(`MessageRecallConfig: maxBodyBytes (${JSON.stringify(maxBodyBytes)}) must be a positive integer`)
  }
  const tombstoneText = input.tombstoneText ?? DEFAULTS.tombstoneText
  if (typeof tombstoneText !== 'string') {
    throw new Error(`MessageRecallConfig: tombstoneText (${JSON.stringify(tombstoneText)}) must be a string`)
  }
  const trustedHosts = input.trustedHosts ?? DEFAULTS.trustedHosts
  if (!Array.isArray(trustedHosts) || trustedHosts.length === 0) {
    throw new Error(`MessageRecallConfig: trustedHosts (${JSON.stringify(trustedHosts)}) must be a non-empty list of host names`)
  }
  for (const host of trustedHosts) {
    if (typeof host !== 'string' || !HOST_PATTERN.test(host.toLowerCase())) {
      throw new Error(`MessageRecallConfig: trustedHosts entry ${JSON.stringify(host)} is not a host name or host:port authority`)
    }
  }
  return Object.freeze({
    path,
    maxBodyBytes,
    tombstoneText,
    trustedHosts: Object.freeze(trustedHosts.map((host: string) => host.toLowerCase())),
  })
}
