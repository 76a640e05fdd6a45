/**
 * The editor's copy of the session: the whole durable history read through the web host
 * (`session.history`, every page) and made into the editor's units, read again, with the selection
 * kept by the dialog, whenever the conversation changed while the dialog is open: a turn ended,
 * the page's replacement view changed (a removal or restore from another tab or entry), or the
 * host answered an `apply` with `STALE_VIEW`.
 *
 * @module dsh-message-recall/client/editor/editor-history
 */
import { useEffect, useRef, useState } from 'react'
import type { LogEvent } from '../../shared/events'
import type { FetchLike } from '../wire/api'
import { readWholeHistory } from '../wire/session-history'
import { buildEditorUnits, type EditorUnit } from './editor-model'
import { errorText } from '../../shared/error-text'
import { lastCompactionSeq } from './context-map'

/**
 * The history as the dialog has it: being read, unreadable (with the reason), or its units, newest
 * seq and the seq of its last compaction checkpoint (`null`: never compacted).
 */
export type EditorLoad =
  | { readonly status: 'loading' }
  | { readonly status: 'failed'; readonly message: string }
  | { readonly status: 'ready'; readonly units: readonly EditorUnit[]; readonly lastSeq: number; readonly compactionSeq: number | null }

/** What {@link useEditorHistory} returns. */
export interface EditorHistory {
  readonly load: EditorLoad
  /** Read the history again (after the host answered that the conversation moved). */
  readonly reread: () => void
}

/**
 * Read a session's history for the editor, and again when the conversation changes.
 * @param fetchImpl - the page's `fetch`.
 * @param sessionId - the session.
 * @param running - a turn is running (its end triggers a new read).
 * @param replacementCount - replacement events the page knows of (a change triggers a new read).
 * @returns the current load and the re-read trigger; a failed read is `status: 'failed'` with the error's message.
 */
export function useEditorHistory(fetchImpl: FetchLike, sessionId: string, running: boolean, replacementCount: number | undefined): EditorHistory {
  const [load, setLoad] = useState<EditorLoad>({ status: 'loading' })
  /** Bumped to read the history again. */
  const [historyRead, setHistoryRead] = useState(0)

  useEffect(() => {
    let live = true
    readWholeHistory(fetchImpl, sessionId).then(
      (events: LogEvent[]) => live && setLoad({ status: 'ready', units: buildEditorUnits(events), lastSeq: events.at(-1)?.seq ?? -1, compactionSeq: lastCompactionSeq(events) }),
      (error: unknown) => live && setLoad({ status: 'failed', message: errorText(error) }),
    )
    return () => { live = false }
  }, [fetchImpl, sessionId, historyRead])

  // A turn that ended, or a removal or restore made elsewhere, while the dialog was open changed the
  // conversation: read it again.
  const seen = useRef({ running, replacementCount })
  useEffect(() => {
    const before = seen.current
    if ((before.running && !running) || before.replacementCount !== replacementCount) setHistoryRead((n) => n + 1)
    seen.current = { running, replacementCount }
  }, [running, replacementCount])

  const reread = useRef(() => setHistoryRead((n) => n + 1)).current
  return { load, reread }
}
