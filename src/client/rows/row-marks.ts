/**
 * The marks the plugin puts on chat rows: its attribute names, in one place for the writers
 * (`decorate.ts`), the listeners (`button-clicks.ts`, `disarm-on-input.ts`, `cluster-place.ts`)
 * and the style sheets. Every mark is an element or attribute of this plugin
 * (`data-message-recall-*`, plus `data-armed`/`data-busy` on its own buttons).
 *
 * DOM contract (shared with the end-to-end suite):
 * - a decorated row holds one `[data-message-recall-actions]` cluster, absolutely positioned just
 *   above the row's top-right corner, clear of the message bubble (no layout shift), shown on row
 *   hover and on focus within the row;
 * - a button that arms carries `data-message-recall-sizer`, its armed text for a three-digit count,
 *   which the style sheet lays out invisibly under the label, so arming ("Delete" → "Delete 1?")
 *   never changes the button's width and the other buttons stay put;
 * - buttons are `<button type="button" data-message-recall-action="recall|delete|deleteFrom|exclude">`
 *   (on an excluded row `restore|forkBefore`) with a localized `aria-label`; an armed button has
 *   `data-armed="true"` and shows the count;
 * - a hidden row carries `data-message-recall-hidden` (the style sheet hides it; the hidden-row
 *   sheet of `hidden-row-sheet.ts` hides it by its key before any pass has marked it);
 * - an excluded row carries `data-message-recall-excluded` (dimmed) and holds one
 *   `[data-message-recall-excluded-badge]` label;
 * - a row whose message a compaction folded (the model reads the compaction summary instead) carries
 *   `data-message-recall-folded` and holds one `[data-message-recall-folded-badge]` label, visible
 *   while the row is pointed at or focused and read by screen readers always;
 * - a row error shows in `[data-message-recall-error]` inside the row.
 *
 * @module dsh-message-recall/client/rows/row-marks
 */

/** Attribute names of the DOM contract. */
export const ATTR = {
  actions: 'data-message-recall-actions',
  action: 'data-message-recall-action',
  hidden: 'data-message-recall-hidden',
  error: 'data-message-recall-error',
  row: 'data-message-recall-row',
  active: 'data-message-recall-active',
  armed: 'data-armed',
  busy: 'data-busy',
  style: 'data-message-recall-style',
  sizer: 'data-message-recall-sizer',
} as const

/** Marks of excluded rows (set by the sync pass). */
export const EXCLUDED_ATTR = {
  /** On a row whose messages are excluded from the model's context. */
  row: 'data-message-recall-excluded',
  /** The row's "Not sent to the model" label. */
  badge: 'data-message-recall-excluded-badge',
} as const

/** Marks of folded rows: messages a compaction summarized (set by the sync pass). */
export const FOLDED_ATTR = {
  /** On a row whose message a compaction folded into its summary. */
  row: 'data-message-recall-folded',
  /** The row's "Summarized" label. */
  badge: 'data-message-recall-folded-badge',
} as const
