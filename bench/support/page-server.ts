/**
 * The Chromium side of the page benchmarks (the editor, the Removed panel): a bench page bundled
 * from its entry and served on loopback beside a stand-in of the web host's history call, and a
 * headless Chromium with a fresh profile to load it in.
 *
 * @module bench/support/page-server
 */
import { build } from 'esbuild'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'puppeteer-core'
import type { LogEvent } from '../../src/shared/events'
import { launchChromium } from '../../tools/chromium'

/**
 * One page of the history call, cut as the web host cuts it: up to `beforeSeq`, back to the
 * `max`-th appended message.
 * @param events - the session's log.
 * @param beforeSeq - the page ends before this seq (absent: at the end of the log).
 * @param max - the most appended messages a page holds.
 */
export function historyPage(events: readonly LogEvent[], beforeSeq: number | undefined, max: number): { events: { event: LogEvent }[]; hasMore: boolean } {
  const end = beforeSeq ?? events.length
  let cut = end
  let messages = 0
  while (cut > 0 && messages < max) {
    cut--
    if (events[cut]!.surfaceOp === 'append') messages++
  }
  return { events: events.slice(cut, end).map((event) => ({ event })), hasMore: cut > 0 }
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

/** A bench page being served, and the browser to open it in. */
export interface BenchPage {
  /** The page's URL on loopback. */
  readonly url: string
  /** Headless Chromium on a fresh profile. */
  readonly browser: Browser
  /** Close the browser and the server, remove the profile. */
  close(): Promise<void>
}

/**
 * Bundle `entry` (an IIFE for the browser, production React) into one HTML document, serve it on a
 * loopback port (GET answers the page; every POST answers `answer(url, body)` as JSON, with the
 * parsed JSON body), and launch Chromium.
 * @param entry - the page's entry file (absolute).
 * @param answer - the reply to a POST at `url` (the request path) with `body`.
 * @returns the served page and the browser; call `close` when done.
 */
export async function startBenchPage(entry: string, answer: (url: string | undefined, body: unknown) => unknown): Promise<BenchPage> {
  const bundle = await build({
    entryPoints: [entry], bundle: true, write: false, format: 'iife', jsx: 'automatic',
    platform: 'browser', target: 'es2022', logLevel: 'warning', define: { __BUILD_STAMP__: '"bench"', 'process.env.NODE_ENV': '"production"' },
  })
  const html = `<!doctype html><html><head></head><body><script>${bundle.outputFiles[0]!.text.replaceAll('</script', '<\\/script')}</script></body></html>`
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        res.end(html)
        return
      }
      const body = await readBody(req)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(answer(req.url, body)))
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  const userDataDir = mkdtempSync(join(tmpdir(), 'mr-bench-chromium-'))
  const { browser } = await launchChromium({ ignoreDefaultArgs: true, args: ['--headless', 'about:blank'], userDataDir, pipe: true })
  return {
    url,
    browser,
    async close() {
      await browser.close()
      server.close()
      rmSync(userDataDir, { recursive: true, force: true })
    },
  }
}
