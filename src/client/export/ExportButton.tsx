/**
 * The entry of the session header seat `conversation.session.header.utilities`, beside DSH's own
 * Session log button (`dsh-session-log-export`): **Session log without removed messages**, which
 * downloads the session's log archive with the content of removed messages left out (host route
 * `GET {path}/export`). DSH's button stays as it is: its archive is the audit export with every
 * event as written. While the download is prepared the button is busy; the outcome (the file
 * name, or the refusal in words) is shown under it in a live region for {@link STATUS_SHOWN_MS}.
 *
 * @module dsh-message-recall/client/export/ExportButton
 */
import { useEffect, useState } from 'react'
import type { Translate } from '../wire/rc8'
import { downloadExport, type ExportFetch } from './download'
import { exportErrorKey } from './export-locales'

/** What the plugin injects into the entry's props. */
export interface ExportKit {
  /** The export strings (`ctx.locale.bind(EXPORT_LOCALE_NS)`). */
  readonly t: Translate
  readonly fetch: ExportFetch
  /** The host half's route path. */
  readonly path: string
}

/** Props the rc.8 seat gives the entry plus the kit. */
export interface ExportButtonProps {
  readonly sessionId: string
  readonly exportKit: ExportKit
}

/** How long the outcome of a download stays shown under the button, in ms. */
export const STATUS_SHOWN_MS = 8000

/** The button's and the status line's style (DSH web theme variables, plain fallbacks), like the Removed and Edit buttons. */
export const EXPORT_CSS = `[data-message-recall-export]{position:relative;display:inline-flex}
[data-message-recall-export]>button{border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));height:32px;border-radius:18px;padding:6px 12px;
display:inline-flex;align-items:center;background:transparent;color:var(--dsw-alias-label-primary,#222);font:inherit;font-size:13px;line-height:20px;cursor:pointer;white-space:nowrap}
[data-message-recall-export]>button:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[data-message-recall-export]>button:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[data-message-recall-export]>button:disabled{opacity:.6;cursor:progress}
[data-message-recall-export-status]{position:absolute;top:calc(100% + 6px);right:0;z-index:100;width:max-content;max-width:360px;padding:6px 10px;border-radius:8px;
font-size:12px;line-height:18px;overflow-wrap:anywhere;background:var(--dsw-specific-menu,#fff);color:var(--dsw-alias-label-secondary,#444);
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));box-shadow:var(--dsw-shadow-lv2,0 2px 6px rgba(0,0,0,.12))}
[data-message-recall-export-status=failed]{color:var(--dsw-alias-state-error-primary,#d93025)}
[data-message-recall-export-status][hidden]{display:none}`

type Status = { readonly kind: 'idle' } | { readonly kind: 'preparing' } | { readonly kind: 'started'; readonly file: string } | { readonly kind: 'failed'; readonly code: string }

/** The button and its status line. */
export function ExportButton({ sessionId, exportKit }: ExportButtonProps) {
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const t = exportKit.t
  useEffect(() => {
    if (status.kind !== 'started' && status.kind !== 'failed') return
    const timer = setTimeout(() => setStatus({ kind: 'idle' }), STATUS_SHOWN_MS)
    return () => clearTimeout(timer)
  }, [status])
  const start = async (doc: Document) => {
    setStatus({ kind: 'preparing' })
    const outcome = await downloadExport(exportKit.fetch, doc, exportKit.path, sessionId)
    setStatus(outcome.ok ? { kind: 'started', file: outcome.file } : { kind: 'failed', code: outcome.code })
  }
  const text = status.kind === 'preparing' ? t('preparing')
    : status.kind === 'started' ? t('started', { file: status.file })
    : status.kind === 'failed' ? t(exportErrorKey(status.code), { code: status.code })
    : ''
  return (
    <span data-message-recall-export="">
      <style>{EXPORT_CSS}</style>
      <button
        type="button"
        aria-label={t('button.label')}
        title={t('button.label')}
        aria-busy={status.kind === 'preparing'}
        disabled={status.kind === 'preparing'}
        onClick={(event) => void start(event.currentTarget.ownerDocument)}
      >
        {t('button')}
      </button>
      <span role="status" data-message-recall-export-status={status.kind} hidden={text === ''}>{text}</span>
    </span>
  )
}
