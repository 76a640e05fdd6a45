/**
 * The editor's live check: after each change of the selection, debounced by
 * {@link PLAN_DEBOUNCE_MS}, the host is asked with a batch `plan` whether it would accept the
 * selection's changes, so a refusal shows on its unit before anything is written. Nothing is
 * written by a `plan`.
 *
 * @module dsh-message-recall/client/editor/editor-plan
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import type { RecallError, RecallErrorCode, RecallSender } from '../wire/api'
import type { EditorPreview } from './editor-model'
import { withoutPrefix } from '../../shared/error-text'

/** Debounce of the host `plan` after a selection change, in ms. */
export const PLAN_DEBOUNCE_MS = 200

/** A refusal of the host, on the unit whose change it names (`null`: the batch as a whole). */
export interface EditorRefusal {
  readonly unit: string | null
  readonly code: RecallErrorCode
  /** `SUMMARY_FAILED`: why, in the host's words (the model's error), without the `message-recall:` prefix. */
  readonly detail?: string
}

/**
 * The unit a refusal names.
 * @param error - the host's error; its `index` is the refused change's index in the batch.
 * @param changeUnits - the unit key of each change, in the batch's order.
 * @returns the refusal on that unit, or on the batch when the error names no change.
 */
export function refusalOf(error: RecallError, changeUnits: readonly string[]): EditorRefusal {
  const detail = error.code === 'SUMMARY_FAILED' ? { detail: withoutPrefix(error.message) } : {}
  return { unit: error.index === undefined ? null : changeUnits[error.index] ?? null, code: error.code, ...detail }
}

/**
 * The host's last accepted batch plan of a selection over one history read: what Apply confirms
 * (`expect.removedCount`, the number of messages the plan removes).
 */
export interface PlannedSelection {
  /** The selection's changes, as JSON. */
  readonly changesKey: string
  /** The newest seq of the history read the plan was made over. */
  readonly lastSeq: number
  /** How many messages the plan removes. */
  readonly removedCount: number
  /**
   * The selection takes summarized messages: Apply rewrites the compaction summary with a model
   * call (the plan's `summaryRewrite`): how many summarized messages leave it, and the estimated
   * input tokens of the call. `null` otherwise.
   */
  readonly rewrite: { readonly removed: number; readonly tokens: number } | null
}

/** What {@link usePlanCheck} returns. */
export interface PlanCheck {
  /** The host's refusal of the current selection, or `null`. */
  readonly refusal: EditorRefusal | null
  /** A check is waiting for its debounce or its reply. */
  readonly checking: boolean
  /** The last plan the host accepted, or `null`. */
  readonly planned: PlannedSelection | null
}

/**
 * Check the selection's changes with the host, debounced. A new selection drops the answer to the
 * old one at once; the same selection over a history read again is planned again (what Apply
 * confirms is the plan over what the dialog shows) and keeps its refusal until the new plan answers.
 * @param send - the route sender.
 * @param sessionId - the session.
 * @param preview - the selection's preview (its `changes` and the unit of each).
 * @param readSeq - the newest seq of the history the dialog read (`-1` while it is not read).
 */
export function usePlanCheck(send: RecallSender, sessionId: string, preview: Pick<EditorPreview, 'changes' | 'changeUnits'>, readSeq: number): PlanCheck {
  const [refusal, setRefusal] = useState<EditorRefusal | null>(null)
  const [checking, setChecking] = useState(false)
  const [planned, setPlanned] = useState<PlannedSelection | null>(null)
  // Once per selection, not on every render of the dialog (a scroll renders it too).
  const changesKey = useMemo(() => JSON.stringify(preview.changes), [preview.changes])
  const plannedSelection = useRef(changesKey)

  useEffect(() => {
    if (plannedSelection.current !== changesKey) {
      plannedSelection.current = changesKey
      setRefusal(null)
    }
    if (preview.changes.length === 0) {
      setChecking(false)
      return
    }
    setChecking(true)
    let live = true
    const timer = setTimeout(() => {
      // The counts alone: the dialog reads only how many messages the plan removes.
      void send({ action: 'plan', sessionId, changes: preview.changes, detail: 'counts' }).then((reply) => {
        if (!live) return
        setChecking(false)
        if (!reply.ok) {
          setRefusal(refusalOf(reply.error, preview.changeUnits))
          return
        }
        setRefusal(null)
        // What Apply confirms: the host answers STALE_VIEW when the batch would remove more, or a message that came back since.
        const rewrite = reply.value.summaryRewrite
        setPlanned({
          changesKey, lastSeq: readSeq, removedCount: reply.value.removedCount,
          rewrite: rewrite === undefined ? null : { removed: rewrite.removedCount, tokens: rewrite.estimatedInputTokens },
        })
      })
    }, PLAN_DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
    // changesKey stands for preview.changes / changeUnits.
  }, [changesKey, readSeq, send, sessionId])

  return { refusal, checking, planned }
}
