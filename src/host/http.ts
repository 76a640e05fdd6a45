/**
 * HTTP plumbing for a raw `webServer` route, which gets no parsing and no trust fence from
 * `dsh-host-webserver` (every method reaches the handler; only `/api` is fenced, by
 * `dsh-client-connection`'s package-internal trust check): the trust fence, method and media-type
 * checks, a capped body reader, and the JSON reply.
 *
 * @module dsh-message-recall/host/http
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { ErrorCode, RouteReply } from '../shared/protocol'
import { countKeys, findDuplicateKey } from './json-keys'
import { errorText } from '../shared/error-text'
import { jsonSteps, takesSteps } from './json-steps'
import { runSliced } from './time-slice'
import { valueText } from './value-text'

/** A request refused before it reaches the session. */
export interface HttpRefusal {
  readonly code: Extract<ErrorCode, 'FORBIDDEN' | 'METHOD_NOT_ALLOWED' | 'UNSUPPORTED_MEDIA_TYPE' | 'PAYLOAD_TOO_LARGE' | 'INVALID_REQUEST'>
  readonly message: string
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** Parse a `Host` value into `{ hostname, authority }` (lower-case), or `null` when malformed. */
function parseAuthority(host: string): { hostname: string; authority: string } | null {
  try {
    const url = new URL(`http://${host}`)
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null
    return { hostname: url.hostname, authority: url.host }
  } catch {
    return null
  }
}

/**
 * The trust fence: `Host` must be a trusted host, an `Origin` must be the same origin as `Host`,
 * and `sec-fetch-site: cross-site` is refused (the three checks `dsh-client-connection` applies
 * to `/api` against DNS rebinding and cross-site requests).
 *
 * Same origin means the Origin's authority (host and port) equals the Host authority and its
 * scheme is `http:` or `https:`; the scheme is not compared with the connection's, as in
 * `isTrustedApiRequest` (`dsh-client-connection`), because a TLS-terminating proxy in front of
 * the plain-HTTP web server makes a page's Origin `https://`.
 * @param headers - the request headers.
 * @param trustedHosts - lower-case host names (any port) or `host:port` authorities.
 * @returns a `FORBIDDEN` refusal, or `null` when the request passes.
 */
export function checkTrust(headers: IncomingHttpHeaders, trustedHosts: readonly string[]): HttpRefusal | null {
  const host = single(headers.host)
  const parsed = host === undefined ? null : parseAuthority(host)
  if (host === undefined) return { code: 'FORBIDDEN', message: 'message-recall: the Host header is missing' }
  if (parsed === null) return { code: 'FORBIDDEN', message: `message-recall: Host header ${valueText(host)} is malformed` }
  if (!trustedHosts.includes(parsed.hostname) && !trustedHosts.includes(parsed.authority)) {
    return { code: 'FORBIDDEN', message: `message-recall: Host "${parsed.authority}" is not a trusted host` }
  }
  const origin = single(headers.origin)
  if (origin !== undefined) {
    let originAuthority: string | null = null
    try {
      const url = new URL(origin)
      if (url.protocol === 'http:' || url.protocol === 'https:') originAuthority = url.host
    } catch {
      originAuthority = null
    }
    if (originAuthority !== parsed.authority) {
      return { code: 'FORBIDDEN', message: `message-recall: Origin "${origin}" is not the same origin as Host "${parsed.authority}"` }
    }
  }
  if (single(headers['sec-fetch-site'])?.toLowerCase() === 'cross-site') {
    return { code: 'FORBIDDEN', message: 'message-recall: cross-site requests (sec-fetch-site: cross-site) are refused' }
  }
  return null
}

/**
 * @param method - the request method.
 * @returns `METHOD_NOT_ALLOWED` for anything but POST (the reply carries `Allow: POST`), else `null`.
 */
export function checkMethod(method: string | undefined): HttpRefusal | null {
  return method === 'POST' ? null : { code: 'METHOD_NOT_ALLOWED', message: `message-recall: method ${method ?? '(none)'} is not allowed; use POST` }
}

/**
 * @param contentType - the `Content-Type` header.
 * @returns `UNSUPPORTED_MEDIA_TYPE` unless it is `application/json` (a `charset` parameter, when
 * present, must be `utf-8`), else `null`.
 */
export function checkContentType(contentType: string | undefined): HttpRefusal | null {
  const [type, ...params] = (contentType ?? '').split(';').map((part) => part.trim().toLowerCase())
  const charset = params.find((param) => param.startsWith('charset='))?.slice('charset='.length).replace(/^"|"$/g, '')
  if (type === 'application/json' && (charset === undefined || charset === 'utf-8')) return null
  if (contentType === undefined) return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'message-recall: the Content-Type header is missing; use application/json' }
  return { code: 'UNSUPPORTED_MEDIA_TYPE', message: `message-recall: content type ${valueText(contentType)} is not application/json` }
}

/**
 * @param contentEncoding - the `Content-Encoding` header.
 * @returns `UNSUPPORTED_MEDIA_TYPE` for any coding but `identity` (a body is read as sent, never
 * decompressed, so a `gzip` body would be read as plain text), else `null` (absent or `identity`).
 */
export function checkContentEncoding(contentEncoding: string | string[] | undefined): HttpRefusal | null {
  const value = Array.isArray(contentEncoding) ? contentEncoding.join(', ') : contentEncoding
  if (value === undefined || value.split(',').every((coding) => coding.trim().toLowerCase() === 'identity')) return null
  return { code: 'UNSUPPORTED_MEDIA_TYPE', message: `message-recall: content encoding ${valueText(value)} is not supported; send the body unencoded (identity)` }
}

/**
 * What the route checks in a parsed body besides its shape: whether it holds a number past the
 * safe integer range (an integer JSON wrote with more digits than a double keeps, or one that
 * parsed to an infinity), and how many object keys it has. Only a body with such a number is
 * parsed again with a reviver, which reads the number's source text (`JSON.parse` source text
 * access, Node 22), so a refusal quotes what was sent (`9007199254740993`), not the double it
 * parsed to (`9007199254740992`); only a body whose key count differs from the keys its text
 * writes ({@link countKeys}) is scanned for the repeated key. A walk of the parsed value with its
 * own stack (no recursion, so any nesting depth): about 7 µs for a 500-change batch, where the
 * reviver's second parse costs about 0.4 ms.
 * @param value - a value `JSON.parse` returned.
 * @returns `{ unsafe, keys }`: `unsafe` is `true` when some number in it is unsafe; `keys` is the
 *   number of own keys of all its objects (counted up to the first unsafe number).
 */
function walkBody(value: unknown): { unsafe: boolean; keys: number } {
  const stack: unknown[] = [value]
  let keys = 0
  while (stack.length > 0) {
    const item = stack.pop()
    if (typeof item === 'number') {
      if (isUnsafeNumber(item)) return { unsafe: true, keys }
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) stack.push(item[i])
    } else if (item !== null && typeof item === 'object') {
      // A parsed object has only its own keys (were `Object.prototype` given enumerable keys, the
      // counts would differ and the text would be scanned: a slower answer, not a wrong one).
      for (const key in item) {
        keys++
        stack.push((item as Record<string, unknown>)[key])
      }
    }
  }
  return { unsafe: false, keys }
}

/** A number no field takes because it lost its value in parsing: an integer past 2^53 - 1, or an infinity. */
function isUnsafeNumber(item: number): boolean {
  return !Number.isSafeInteger(item) && (Number.isInteger(item) || !Number.isFinite(item))
}

/**
 * Read a JSON body of at most `maxBytes` bytes. A declared `Content-Length` over the cap is
 * refused before reading; a streamed body stops being read (the stream is paused and its
 * listeners removed) as soon as it passes the cap. After a `PAYLOAD_TOO_LARGE` the caller must
 * answer with `Connection: close`.
 * @param req - the request stream.
 * @param maxBytes - the cap, in bytes.
 * @returns the parsed value, or `PAYLOAD_TOO_LARGE` / `INVALID_REQUEST` (invalid UTF-8 or JSON, an
 * object that repeats a key: `JSON.parse` would silently keep the last one, or a number past the
 * safe integer range, which no field takes, quoted as sent).
 * @throws the stream's error when the connection fails while reading.
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<{ ok: true; value: unknown } | { ok: false; refusal: HttpRefusal }> {
  const tooLarge = (bytes: string): { ok: false; refusal: HttpRefusal } => ({
    ok: false,
    refusal: { code: 'PAYLOAD_TOO_LARGE', message: `message-recall: request body of ${bytes} bytes exceeds maxBodyBytes ${maxBytes}` },
  })
  const declared = Number(single(req.headers['content-length']))
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(tooLarge(String(declared)))

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const cleanup = (): void => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
    }
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > maxBytes) {
        cleanup()
        req.pause()
        resolve(tooLarge(`more than ${maxBytes}`))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = (): void => {
      cleanup()
      let text: string
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))
      } catch {
        resolve({ ok: false, refusal: { code: 'INVALID_REQUEST', message: 'message-recall: request body is not valid UTF-8' } })
        return
      }
      let value: unknown
      let unsafe: { key: string; inArray: boolean; source: string } | null = null
      try {
        value = JSON.parse(text)
      } catch (error) {
        resolve({ ok: false, refusal: { code: 'INVALID_REQUEST', message: `message-recall: request body is not JSON: ${errorText(error)}` } })
        return
      }
      const walked = walkBody(value)
      if (walked.unsafe) {
        try {
          JSON.parse(text, function (this: unknown, key: string, item: unknown, context?: { source?: string }) {
            if (unsafe === null && typeof item === 'number' && isUnsafeNumber(item)) {
              unsafe = { key, inArray: Array.isArray(this), source: context?.source ?? String(item) }
            }
            return item
          })
        } catch {
          // Nested too deep for a reviver (it recurses): the validators refuse the value as parsed.
        }
      }
      if (unsafe !== null) {
        const { key, inArray, source } = unsafe as { key: string; inArray: boolean; source: string }
        const where = inArray ? `item ${key} of an array` : JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key)
        resolve({ ok: false, refusal: { code: 'INVALID_REQUEST', message: `message-recall: the number ${source.length > 80 ? `${source.slice(0, 80)}…` : source} in ${where} is past the safe integer range (2^53 - 1); no field takes it` } })
        return
      }
      // `JSON.parse` keeps one property per distinct key: a repeat shows as a key written more often than kept.
      const repeated = walked.unsafe || countKeys(text) !== walked.keys ? findDuplicateKey(text) : null
      if (repeated !== null) {
        const where = repeated.path.length === 0 ? 'the request body' : `"${repeated.path.join('.')}"`
        resolve({ ok: false, refusal: { code: 'INVALID_REQUEST', message: `message-recall: key ${JSON.stringify(repeated.key)} appears twice in ${where}` } })
        return
      }
      resolve({ ok: true, value })
    }
    const onError = (error: Error): void => {
      cleanup()
      reject(error)
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
  })
}

/**
 * Send a JSON reply and end the response.
 * @param res - the response.
 * @param status - HTTP status.
 * @param body - the envelope.
 * @param headers - extra headers (e.g. `Allow`, `Connection`).
 */
export function sendJson(res: ServerResponse, status: number, body: RouteReply<unknown>, headers: Record<string, string> = {}): void {
  sendText(res, status, JSON.stringify(body), headers)
}

/**
 * {@link sendJson} for a reply that may be large (a batch of thousands of changes): the JSON text
 * is written in slices of the event loop ({@link jsonSteps}, {@link runSliced}), so other
 * requests are served while it is written. A reply without a long array ({@link takesSteps}:
 * none over 512 elements, so `jsonSteps` would write it in one step anyway) is written in one
 * piece by `JSON.stringify`, at once.
 * @param res - the response.
 * @param status - HTTP status.
 * @param body - the envelope.
 * @param headers - extra headers (e.g. the durable tombstone's, `shared/durable-header.ts`).
 * @returns once the reply is handed to the response.
 */
export async function sendJsonInSlices(res: ServerResponse, status: number, body: RouteReply<unknown>, headers: Record<string, string> = {}): Promise<void> {
  sendText(res, status, takesSteps(body) ? await runSliced(jsonSteps(body)) : JSON.stringify(body), headers)
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  })
  res.end(text)
}
