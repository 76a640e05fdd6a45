/**
 * The editor's live check: after each change of the selection, debounced by
 * {@link PLAN_DEBOUNCE_MS}, the host is asked with a batch `plan` whether it would accept the
 * selection's changes, so a refusal shows on its unit before anything is written. Nothing is
 * written by a `plan`.
 *
 * @module dsh-message-recall/client/editor/editor-plan
 */
import { useEffect, useState } from 'react'
import type { RecallError, RecallErrorCode, RecallSender } from '../wire/api'
import type { EditorPreview } from './editor-model'

/** Debounce of the host `plan` after a selection change, in ms. */
export const PLAN_DEBOUNCE_MS = 200

/** A refusal of the host, on the unit whose change it names (`null`: the batch as a whole). */
export interface EditorRefusal {
  readonly unit: string | null
  readonly code: RecallErrorCode
}

/**
 * The unit a refusal names.
 * @param error - the host's error; its `index` is the refused change's index in the batch.
 * @param changeUnits - the unit key of each change, in the batch's order.
 * @returns the refusal on that unit, or on the batch when the error names no change.
 */
export function refusalOf(error: RecallError, changeUnits: readonly string[]): EditorRefusal {
  return { unit: error.index === undefined ? null : changeUnits[error.index] ?? null, code: error.code }
}

/** What {@link usePlanCheck} returns. */
export interface PlanCheck {
  /** The host's refusal of the current selection, or `null`. */
  readonly refusal: EditorRefusal | null
  /** A check is waiting for its debounce or its reply. */
  readonly checking: boolean
}

/**
 * Check the selection's changes with the host, debounced; a new selection drops the answer to the old one.
 * @param send - the route sender.
 * @param sessionId - the session.
 * @param preview - the selection's preview (its `changes` and the unit of each).
 */
export function usePlanCheck(send: RecallSender, sessionId: string, preview: Pick<EditorPreview, 'changes' | 'changeUnits'>): PlanCheck {
  const [refusal, setRefusal] = useState<EditorRefusal | null>(null)
  const [checking, setChecking] = useState(false)
  const changesKey = JSON.stringify(preview.changes)

  useEffect(() => {
    setRefusal(null)
    if (preview.changes.length === 0) {
      setChecking(false)
      return
    }
    setChecking(true)
    let live = true
    const timer = setTimeout(() => {
      void send({ action: 'plan', sessionId, changes: preview.changes }).then((reply) => {
        if (!live) return
        setChecking(false)
        if (!reply.ok) setRefusal(refusalOf(reply.error, preview.changeUnits))
      })
    }, PLAN_DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
    // changesKey stands for preview.changes / changeUnits.
  }, [changesKey, send, sessionId])

  return { refusal, checking }
}
