/**
 * One export download: `GET` the host's export route, then hand the archive to the browser's
 * download manager as a file (an object URL on an `<a download>` clicked once). A refusal comes
 * back as the host's error code; nothing is downloaded then.
 *
 * @module dsh-message-recall/client/export/download
 */
import { exportFilename, exportUrl } from '../../shared/export-protocol'

/** The `fetch` shape the download uses (the page's `fetch`). */
export type ExportFetch = (url: string, init: { method: 'GET'; headers: Record<string, string> }) => Promise<{
  readonly ok: boolean
  readonly status: number
  blob(): Promise<Blob>
  json(): Promise<unknown>
}>

/** The outcome of one download. */
export type DownloadOutcome = { readonly ok: true; readonly file: string } | { readonly ok: false; readonly code: string }

/**
 * Download one session's export.
 * @param fetchImpl - the page's `fetch`.
 * @param doc - the page's document (the link is made and clicked there).
 * @param routePath - the host half's route path.
 * @param sessionId - the session to export.
 * @returns `{ ok: true, file }` once the browser was given the file, or `{ ok: false, code }`: the
 * host's error code, `HTTP_<status>` for a reply without one, `NETWORK` when the request failed.
 */
export async function downloadExport(fetchImpl: ExportFetch, doc: Document, routePath: string, sessionId: string): Promise<DownloadOutcome> {
  let res: Awaited<ReturnType<ExportFetch>>
  try {
    res = await fetchImpl(exportUrl(routePath, sessionId), { method: 'GET', headers: { accept: 'application/zip' } })
  } catch {
    return { ok: false, code: 'NETWORK' }
  }
  if (!res.ok) {
    const body = await res.json().catch(() => undefined) as { error?: { code?: unknown } } | undefined
    const code = body?.error?.code
    return { ok: false, code: typeof code === 'string' ? code : `HTTP_${res.status}` }
  }
  const blob = await res.blob()
  const file = exportFilename(sessionId)
  const view = doc.defaultView as (Window & typeof globalThis) | null
  const url = view!.URL.createObjectURL(blob)
  const link = doc.createElement('a')
  link.href = url
  link.download = file
  link.style.display = 'none'
  doc.body.appendChild(link)
  link.click()
  link.remove()
  // The download manager has taken the URL once the click's task ran; free the bytes afterwards.
  view!.setTimeout(() => view!.URL.revokeObjectURL(url), 60_000)
  return { ok: true, file }
}
