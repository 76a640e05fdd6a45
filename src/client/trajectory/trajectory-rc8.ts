/**
 * The rc.8 Trajectory tab (`@deepseek-ai/dsh-client-ui-trajectory`) as the plugin sees it: how a
 * table row names the session event it shows, and the markers of its rows and its inspector.
 * Every rc.8-specific shape of the tab lives here.
 *
 * - A row is a `<tr>` with `data-trajectory-row-key`, `encodeURIComponent` of the record id
 *   (`TrajectoryTable` `trajectoryVirtualRecordKey` → `trajectoryRecordId`): a message the person
 *   or the harness sent is `user\u0000seq\u0000<seq>` or `context\u0000seq\u0000<seq>`
 *   (`inputCellDetail` sets `sourceSeq`), a model step's message is
 *   `assistant\u0000<turn>\u0000<step>` (`expandAssistant` sets `recordId`), a tool call with its
 *   result is `tool\u0000call\u0000<callId>`.
 * - The selected row has `data-selected="true"`; the inspector of the selected row is
 *   `<aside aria-label="Event details">` (an English label in every locale).
 * - A row's content is its last cell; its `aria-label` repeats the content.
 *
 * @module dsh-message-recall/client/trajectory/trajectory-rc8
 */
import type { LogEvent } from '../../shared/events'
import { stepOf, toolResultCallId } from '../../shared/surface-node'

/** Attribute naming a row's record. */
export const ROW_KEY_ATTRIBUTE = 'data-trajectory-row-key'
/** Every table row that shows a record. */
export const ROW_SELECTOR = `tr[${ROW_KEY_ATTRIBUTE}]`
/** The selected row. */
export const SELECTED_ROW_SELECTOR = `tr[${ROW_KEY_ATTRIBUTE}][data-selected="true"]`
/** The inspector of the selected row. */
export const INSPECTOR_SELECTOR = 'aside[aria-label="Event details"]'

const key = (...parts: Array<string | number>): string => encodeURIComponent(parts.join('\u0000'))

/**
 * The row keys a session event can appear under in the Trajectory tab.
 * @param event - a surface event (`user/message`, `assistant/message`, `tool/result`).
 * @returns the encoded `data-trajectory-row-key` values; `[]` for other events.
 */
export function trajectoryRowKeys(event: LogEvent): string[] {
  if (event.type === 'user/message') return [key('user', 'seq', event.seq), key('context', 'seq', event.seq)]
  if (event.type === 'assistant/message') {
    const step = stepOf(event)
    return step === null ? [] : [key('assistant', step.turn, step.step)]
  }
  if (event.type === 'tool/result') {
    const callId = toolResultCallId(event)
    return callId === null ? [] : [key('tool', 'call', callId)]
  }
  return []
}
