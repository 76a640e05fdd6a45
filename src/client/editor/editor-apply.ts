/**
 * The editor's Apply: one `apply` of the selection's changes against the history the dialog read
 * (`expect.lastSeq`), confirming the host's last plan of the selection (`expect.removedCount`). Success closes the dialog; a batch the host answered `PERSIST_FAILED` with
 * `applied: true` is in effect, so the dialog closes too and the session's unsaved notice (above
 * the composer, with Save again) says it is not saved yet; any other refusal stays on its unit,
 * and `STALE_VIEW` (the conversation moved) has the history read again, the selection kept.
 *
 * A selection that takes summarized messages (the host's plan names a `summaryRewrite`) rewrites
 * the compaction summary with a model call: the first Apply only arms (the dialog names the call
 * and its estimated input tokens), the second sends the `apply`; while it runs, {@link EditorApply.cancel}
 * (Cancel, Escape) aborts the request and the host cancels the model call with nothing written.
 * A failed or cancelled call writes nothing and its reason stays in the dialog.
 *
 * @module dsh-message-recall/client/editor/editor-apply
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { RecallSender } from '../wire/api'
import type { UnsavedSink } from '../stores/unsaved-writes'
import type { EditorPreview } from './editor-model'
import { refusalOf, type EditorRefusal, type PlannedSelection } from './editor-plan'

/** What {@link useEditorApply} needs. */
export interface EditorApplyInput {
  readonly send: RecallSender
  readonly sessionId: string
  /** The session's unsaved state. */
  readonly unsaved: UnsavedSink
  /** The selection's preview: its `changes` and the unit of each. */
  readonly preview: Pick<EditorPreview, 'changes' | 'changeUnits'>
  /** The newest seq of the history the dialog read, or `null` while it is not read. */
  readonly lastSeq: number | null
  /** The host's last accepted plan of a selection (`usePlanCheck`): its `removedCount` is sent as confirmed when it is of this selection and history read. */
  readonly planned: PlannedSelection | null
  /** Apply is allowed now (history read, changes selected, no turn running, no refusal). */
  readonly enabled: boolean
  /** The history must be read again. */
  readonly reread: () => void
  /** Close the dialog; `applied` tells whether the batch was written. */
  readonly onClose: (applied: boolean) => void
}

/** What {@link useEditorApply} returns. */
export interface EditorApply {
  /** An `apply` is in flight. */
  readonly applying: boolean
  /** The selection rewrites the summary and Apply was pressed once: the next Apply sends it. */
  readonly armed: boolean
  /** The `apply` in flight rewrites the summary (a model call that {@link EditorApply.cancel} aborts). */
  readonly rewriting: boolean
  /** Abort a summary rewrite in flight (nothing is written), or let go of an armed Apply; false when there was neither. */
  readonly cancel: () => boolean
  /** The host's plan of this selection names a summary rewrite: its removed count and estimated input tokens; else `null`. */
  readonly rewrite: { readonly removed: number; readonly tokens: number } | null
  /** The refusal of the last `apply`, until the selection changes. */
  readonly applyError: EditorRefusal | null
  /** Send the `apply` (ignored unless enabled). */
  readonly apply: () => Promise<void>
}

/**
 * The Apply action of the editor dialog; see the module description.
 * @param input - see {@link EditorApplyInput}.
 */
export function useEditorApply(input: EditorApplyInput): EditorApply {
  const { send, sessionId, unsaved, preview, lastSeq, planned, enabled, reread, onClose } = input
  const [applying, setApplying] = useState(false)
  const [applyError, setApplyError] = useState<EditorRefusal | null>(null)
  const [armed, setArmed] = useState(false)
  const [rewriting, setRewriting] = useState(false)
  const cancelling = useRef<AbortController | null>(null)
  const changesKey = JSON.stringify(preview.changes)
  const current = planned?.changesKey === changesKey && planned.lastSeq === lastSeq ? planned : null
  // A new selection drops the last refusal and the armed Apply.
  useEffect(() => {
    setApplyError(null)
    setArmed(false)
  }, [changesKey])

  const cancel = useCallback((): boolean => {
    if (cancelling.current !== null) {
      cancelling.current.abort()
      return true
    }
    if (armed) {
      setArmed(false)
      return true
    }
    return false
  }, [armed])

  const apply = useCallback(async () => {
    if (!enabled || applying || lastSeq === null) return
    const rewrite = current?.rewrite ?? null
    // A summary rewrite is a model call: the first press names it, the second writes.
    if (rewrite !== null && !armed) {
      setArmed(true)
      return
    }
    setArmed(false)
    setApplying(true)
    const controller = rewrite === null ? null : new AbortController()
    cancelling.current = controller
    setRewriting(controller !== null)
    const confirmed = current === null ? {} : { removedCount: current.removedCount }
    const reply = await send({ action: 'apply', sessionId, changes: preview.changes, expect: { lastSeq, ...confirmed } }, controller === null ? undefined : { signal: controller.signal })
    cancelling.current = null
    setRewriting(false)
    setApplying(false)
    if (reply.ok) {
      if (reply.value.persisted) unsaved.settled()
      onClose(true)
    } else if (reply.error.code === 'PERSIST_FAILED' && reply.error.applied === true) {
      // In effect, not yet durable: the conversation already shows the batch.
      unsaved.mark('apply', preview.changes.length)
      onClose(true)
    } else {
      setApplyError(refusalOf(reply.error, preview.changeUnits))
      // The conversation moved since the history was read: read it again, keeping the selection.
      if (reply.error.code === 'STALE_VIEW') reread()
    }
  }, [enabled, applying, armed, lastSeq, current, send, sessionId, unsaved, preview, reread, onClose])

  return { applying, applyError, apply, armed, rewriting, cancel, rewrite: current?.rewrite ?? null }
}
