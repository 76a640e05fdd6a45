/**
 * The host's word on the batches the Removed panel would name cut short. The page reads only the
 * replacement events, not the session's header, so it cannot tell a batch torn by a power loss
 * from one a copy's seed ends inside (**Open a copy** of a batch's later tombstone keeps a prefix
 * of the batch on purpose). The host can: its `inspect` answer leaves out a batch the copy's
 * `seedLength` cuts (`shared/batch-mark.ts`). So when the page finds a batch cut short, the panel
 * asks `inspect` once and names only the batches the host names too; until the answer it names
 * none, and when the host cannot answer (the request fails, or neither summary is available) it
 * names what the page found.
 *
 * @module dsh-message-recall/client/panel/cut-short-check
 */
import { useEffect, useState } from 'react'
import type { LogSummary } from '../../shared/protocol'
import type { RecallSender } from '../wire/api'
import type { CutShortEntry } from './removal-list'

/**
 * The entries the host confirms.
 * @param found - the page's entries (`cutShortEntries`).
 * @param host - the host's summary (`inspect` value's `live`, else `disk`), or `null` when it gave none.
 * @returns the entries whose batch (by its first tombstone's seq) the host lists in
 *   `cutShortBatches`; all of `found` when `host` is `null`.
 */
export function confirmedEntries(found: readonly CutShortEntry[], host: Pick<LogSummary, 'cutShortBatches'> | null): CutShortEntry[] {
  if (host === null) return [...found]
  const named = new Set(host.cutShortBatches.map((batch) => batch.firstSeq))
  return found.filter((entry) => named.has(entry.firstSeq))
}

/** What the host said about one set of found batches (keyed by their first seqs). */
interface Checked {
  readonly key: string
  readonly host: Pick<LogSummary, 'cutShortBatches'> | null
}

/**
 * The panel's hook: the found entries the host confirms, asking `inspect` once per set of found
 * batches while the panel is open.
 * @param found - the page's entries, newest first.
 * @param sessionId - the session.
 * @param send - the route sender; absent: the found entries as they are.
 * @returns the entries to show: none while the host's answer is awaited.
 */
export function useConfirmedCutShort(found: readonly CutShortEntry[], sessionId: string, send: RecallSender | undefined): readonly CutShortEntry[] {
  const key = found.map((entry) => entry.firstSeq).join(',')
  const [checked, setChecked] = useState<Checked | null>(null)
  useEffect(() => {
    if (key === '' || send === undefined) return
    let live = true
    void send({ sessionId, action: 'inspect' }).then(
      (reply) => (reply.ok ? reply.value.live ?? reply.value.disk : null),
      () => null,
    ).then((host) => {
      if (live) setChecked({ key, host })
    })
    return () => {
      live = false
    }
  }, [key, sessionId, send])
  if (found.length === 0 || send === undefined) return found
  if (checked === null || checked.key !== key) return []
  return confirmedEntries(found, checked.host)
}
