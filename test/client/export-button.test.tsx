/**
 * The export button (`src/client/export/`) in happy-dom with React 18 and the real rc.8 locale
 * runtime: its dictionaries (en has exactly the zh keys and placeholders), the request it sends,
 * the file it hands to the browser (a link with `download`, clicked once), and each refusal in
 * words in both languages, with nothing downloaded. The host is a fake `fetch`.
 */
import './support/dom'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { Context } from '@deepseek-ai/cordis'
import { ExportButton, type ExportKit } from '../../src/client/export/ExportButton'
import type { ExportFetch } from '../../src/client/export/download'
import { EXPORT_DICTIONARIES, EXPORT_LOCALE_NS, exportEn, exportZh } from '../../src/client/export/export-locales'
import { page } from './support/dom'
import { clientLocale } from './support/rc8-client'
import { waitFor } from './support/dom'

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

interface Sent { url: string; init: unknown }

function fakeFetch(reply: { status: number; body: unknown }, sent: Sent[]): ExportFetch {
  return async (url, init) => {
    sent.push({ url, init })
    return {
      ok: reply.status === 200,
      status: reply.status,
      blob: async () => new page.Blob([reply.body as string], { type: 'application/zip' }) as unknown as Blob,
      json: async () => reply.body,
    }
  }
}

async function mount(kit: ExportKit) {
  const host = document.createElement('div')
  document.body.appendChild(host)
  const root = createRoot(host)
  await act(async () => root.render(<ExportButton sessionId="session-1" exportKit={kit} />))
  return { host, unmount: () => act(async () => root.unmount()).then(() => host.remove()) }
}

describe('export button', () => {
  it('en has exactly the zh keys, with the same placeholders', () => {
    assert.deepEqual(Object.keys(exportEn).sort(), Object.keys(exportZh).sort())
    for (const key of Object.keys(exportZh) as (keyof typeof exportZh)[]) assert.deepEqual(placeholders(exportEn[key]), placeholders(exportZh[key]), key)
  })

  it('downloads the archive by GET and names the file; refusals are shown in words and download nothing', async () => {
    const locale = new clientLocale.LocaleRuntime(new Context())
    const dispose = locale.register(EXPORT_LOCALE_NS, EXPORT_DICTIONARIES)
    const t = locale.bind(EXPORT_LOCALE_NS)
    locale.setLocale('en')
    const clicked: Array<{ download: string; href: string }> = []
    const original = page.HTMLAnchorElement.prototype.click
    page.HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) { clicked.push({ download: this.download, href: this.href }) }
    try {
      const sent: Sent[] = []
      const ok = await mount({ t, path: '/dsh-message-recall', fetch: fakeFetch({ status: 200, body: 'PK' }, sent) })
      const button = ok.host.querySelector('button')!
      assert.deepEqual([button.textContent, button.getAttribute('type'), button.getAttribute('aria-label')], ['Log without removed', 'button', exportEn['button.label']])
      await act(async () => button.click())
      await waitFor(() => ok.host.querySelector('[data-message-recall-export-status="started"]') !== null, 'the started status')
      assert.deepEqual(sent, [{ url: '/dsh-message-recall/export?sessionId=session-1', init: { method: 'GET', headers: { accept: 'application/zip' } } }])
      assert.equal(clicked.length, 1)
      assert.equal(clicked[0]!.download, 'dsh-session-session-1-without-removed.zip')
      assert.match(clicked[0]!.href, /^blob:/)
      assert.equal(ok.host.querySelector('[role=status]')!.textContent, 'Download started: dsh-session-session-1-without-removed.zip')
      assert.equal(document.querySelectorAll('a[download]').length, 0, 'the link is gone again')
      await ok.unmount()

      const cases: Array<[number, unknown, string, string]> = [
        [423, { ok: false, error: { code: 'AGENT_BUSY', message: 'busy' } }, 'The agent is working. Export when it stops.', '智能体正在工作，停下后再导出。'],
        [404, { ok: false, error: { code: 'SESSION_NOT_FOUND', message: 'none' } }, 'This session has no stored log.', '找不到这个会话的日志。'],
        [501, { ok: false, error: { code: 'EXPORT_UNAVAILABLE', message: 'no' } }, 'This host cannot export session logs.', '这个主机不能导出会话日志。'],
        [400, { ok: false, error: { code: 'INVALID_REQUEST', message: 'bad' } }, 'Export failed (INVALID_REQUEST).', '导出失败（INVALID_REQUEST）。'],
        [502, 'not json', 'Export failed (HTTP_502).', '导出失败（HTTP_502）。'],
      ]
      for (const [status, body, english, chinese] of cases) {
        for (const [lang, text] of [['en', english], ['zh', chinese]] as const) {
          locale.setLocale(lang)
          const refused = await mount({ t, path: '/dsh-message-recall', fetch: fakeFetch({ status, body: typeof body === 'string' ? undefined : body }, []) })
          await act(async () => refused.host.querySelector('button')!.click())
          await waitFor(() => refused.host.querySelector('[data-message-recall-export-status="failed"]') !== null, `the refusal ${status}`)
          assert.equal(refused.host.querySelector('[role=status]')!.textContent, text)
          await refused.unmount()
        }
      }
      assert.equal(clicked.length, 1, 'no refusal downloaded anything')
    } finally {
      page.HTMLAnchorElement.prototype.click = original
      dispose()
    }
  })
})
