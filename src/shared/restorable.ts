/**
 * The one rule of what can be undone in place. A tombstone of this plugin can be restored in
 * place when it is on the surface and shadows exactly one node, a message the person sent: no
 * earlier tombstone inside it (that one's range would have to come back as well), no model step
 * (an `assistant/message` or `tool/result` copy outside a turn is refused by the rc.8 session
 * invariant, see `host/restore-plan.ts`), not several nodes. Everything else comes back only as a
 * copy of the conversation from before the tombstone.
 *
 * The host's restore planner, the fate reader (`fate.ts`: the chat's excluded rows, the Removed
 * panel, the editor) and the undo notice all decide with {@link notRestorableReason}. Pure and
 * browser-safe.
 *
 * @module dsh-message-recall/shared/restorable
 */
import type { NodeKind } from './surface-node'

/** Why a tombstone on the surface cannot be undone in place, in the order the rule checks. */
export type NotRestorableReason = 'absorbed-tombstone' | 'model-step' | 'several-nodes' | 'not-a-prompt'

/**
 * Why a tombstone that is on the surface cannot be undone in place, or `null` when it can.
 * @param kinds - the node kind of every node the tombstone shadows, in surface order
 *   (`surface-node.ts` `classifyNode`); `null` for a node the caller cannot see (the browser holds
 *   only the rows it loaded), which is never taken for a message the person sent.
 * @returns `absorbed-tombstone` (it shadows an earlier tombstone), `model-step` (an assistant
 *   message or a tool result), `several-nodes`, `not-a-prompt` (its one node is not known to be a
 *   message the person sent), checked in this order; `null` when it is one message the person sent.
 */
export function notRestorableReason(kinds: readonly (NodeKind | null)[]): NotRestorableReason | null {
  if (kinds.includes('tombstone')) return 'absorbed-tombstone'
  if (kinds.includes('assistant') || kinds.includes('tool')) return 'model-step'
  if (kinds.length !== 1) return 'several-nodes'
  return kinds[0] === 'user' ? null : 'not-a-prompt'
}
