/**
 * The action table: every action that changes a session's surface, described once. The host's
 * request schemas and planners, the browser half's buttons, labels and dictionaries, and the log
 * tools' per-action counts all read it, so adding an action is one row here plus its texts in both
 * dictionaries (see CONTRIBUTING, "Adding an action").
 *
 * Each row says:
 * - `plans` — the planning shape (`host/surface-plan.ts` and `host/restore-plan.ts` key on it, never
 *   on an action's name): `message` (the target node alone), `step` (a user message alone; an
 *   answer or a tool result takes its whole model step), `onward` (from the first node of the
 *   target's model step to the end of the surface), `restore` (a copy of the removed message
 *   replacing exactly its tombstone);
 * - `targets` — what it may address: `prompt` (a message the person sent, `source.kind === 'user'`),
 *   `message` (any message a removal may take), `tombstone` (a tombstone of this plugin);
 * - `effect` — what its event does to the rows it covers: `removed` (hidden), `excluded` (kept in
 *   view, dimmed, out of the model's context), `restored` (back in place);
 * - `confirm` — the row button asks for a second click, showing the planned count;
 * - `offeredOn` — the rows whose button cluster holds it: `prompt` (a message the person sent),
 *   `message` (an answer, a tool result, or a user-role message the person did not send), `excluded`
 *   (a prompt row whose message one exclusion alone shadows);
 * - `inBatch` — accepted as a change of `apply` and of a batch `plan`;
 * - `returnsContent` — the reply carries the removed message's content and text (for the composer);
 * - `undoInPlace` — what it writes can be restored in place (when it shadows one message the
 *   person sent; anything else comes back only in a fork);
 * - `texts` — its keys in the browser half's dictionaries (`client/locales.ts`, which checks that
 *   every key named here exists in both).
 *
 * @module dsh-message-recall/shared/actions
 */

/** How an action plans its replace; see the module description. */
export type PlanningShape = 'message' | 'step' | 'onward' | 'restore'

/** What an action may address; see the module description. */
export type ActionTarget = 'prompt' | 'message' | 'tombstone'

/** What an action's event does to the rows it covers. */
export type RowEffect = 'removed' | 'excluded' | 'restored'

/** A group of transcript rows that offer the same buttons. */
export type RowGroup = 'prompt' | 'message' | 'excluded'

/** An action's keys in the browser half's dictionaries (`client/locales.ts`). */
export interface ActionTexts {
  /** The button's text. */
  readonly button: string
  /** The button's accessible name (and `title`). */
  readonly label: string
  /** The accessible name on a model row, when it differs (the step goes whole). */
  readonly stepLabel?: string
  /** `confirm` actions: the armed button's text, with `{count}`. */
  readonly armed?: string
  /** `confirm` actions: base of the armed button's counted accessible name (`.one` / `.other`). */
  readonly armedLabel?: string
  /** Tombstone actions: base of the undo notice's counted text. */
  readonly undo?: string
  /** Base of the "applied, not yet saved" notice's counted text. */
  readonly unsaved: string
  /** Tombstone actions: the Removed panel's name of the entry. */
  readonly panel?: string
}

/** One row of the action table; see the module description. */
export interface ActionSpec {
  readonly plans: PlanningShape
  readonly targets: ActionTarget
  readonly effect: RowEffect
  readonly confirm: boolean
  readonly offeredOn: readonly RowGroup[]
  readonly inBatch: boolean
  readonly returnsContent: boolean
  readonly undoInPlace: boolean
  readonly texts: ActionTexts
}

/** The action table, in the stable order every derived list keeps. */
export const ACTIONS = {
  recall: {
    plans: 'message', targets: 'prompt', effect: 'removed', confirm: false, offeredOn: ['prompt'], inBatch: false, returnsContent: true, undoInPlace: true,
    texts: { button: 'action.recall', label: 'label.recall', undo: 'undo.recall', unsaved: 'unsaved.recall', panel: 'panel.action.recall' },
  },
  delete: {
    plans: 'step', targets: 'message', effect: 'removed', confirm: true, offeredOn: ['prompt', 'message'], inBatch: true, returnsContent: false, undoInPlace: true,
    texts: {
      button: 'action.delete', label: 'label.delete.message', stepLabel: 'label.delete.step', armed: 'armed.delete', armedLabel: 'armed.label',
      undo: 'undo.delete', unsaved: 'unsaved.delete', panel: 'panel.action.delete',
    },
  },
  deleteFrom: {
    plans: 'onward', targets: 'message', effect: 'removed', confirm: true, offeredOn: ['prompt', 'message'], inBatch: true, returnsContent: false, undoInPlace: true,
    texts: {
      button: 'action.deleteFrom', label: 'label.deleteFrom', armed: 'armed.deleteFrom', armedLabel: 'armed.label',
      undo: 'undo.deleteFrom', unsaved: 'unsaved.deleteFrom', panel: 'panel.action.deleteFrom',
    },
  },
  exclude: {
    plans: 'step', targets: 'message', effect: 'excluded', confirm: true, offeredOn: ['prompt', 'message'], inBatch: true, returnsContent: false, undoInPlace: true,
    texts: {
      button: 'action.exclude', label: 'label.exclude', armed: 'armed.exclude', armedLabel: 'armed.excludeLabel',
      undo: 'undo.exclude', unsaved: 'unsaved.exclude', panel: 'panel.action.exclude',
    },
  },
  restore: {
    plans: 'restore', targets: 'tombstone', effect: 'restored', confirm: false, offeredOn: ['excluded'], inBatch: true, returnsContent: false, undoInPlace: false,
    texts: { button: 'action.restore', label: 'label.restore', unsaved: 'unsaved.restore' },
  },
} as const satisfies Record<string, ActionSpec>

/** The actions of the table, by name. */
type Table = typeof ACTIONS

/** Every action of the table: the ones that write a tombstone, and `restore`. */
export type SurfaceAction = keyof Table

/** The actions that write a tombstone (every shape but `restore`); `source.action` of a tombstone. */
export type TombstoneAction = { [A in SurfaceAction]: Table[A]['plans'] extends 'restore' ? never : A }[SurfaceAction]

/** The tombstone actions whose rows are hidden (`effect: 'removed'`). */
export type RemovalAction = { [A in TombstoneAction]: Table[A]['effect'] extends 'removed' ? A : never }[TombstoneAction]

/** The actions a batch (`apply`, a batch `plan`) accepts as a change. */
export type BatchAction = { [A in SurfaceAction]: Table[A]['inBatch'] extends true ? A : never }[SurfaceAction]

/** The tombstone actions a batch accepts, addressed by the seq of a surface node. */
export type BatchRemovalAction = Extract<BatchAction, TombstoneAction>

/** The actions whose row button asks for a second click. */
export type ConfirmedAction = { [A in SurfaceAction]: Table[A]['confirm'] extends true ? A : never }[SurfaceAction]

/** The planning of a tombstone action, as the removal planner reads it. */
export type RemovalPlanning = Pick<ActionSpec, 'targets'> & { readonly plans: Exclude<PlanningShape, 'restore'> }

/** Every action of the table, in table order. */
export const SURFACE_ACTIONS: readonly SurfaceAction[] = Object.freeze(Object.keys(ACTIONS) as SurfaceAction[])

/**
 * Whether a value names a tombstone action.
 * @param action - any value.
 * @returns true for a key of {@link ACTIONS} whose shape is not `restore`.
 */
export function isTombstoneAction(action: unknown): action is TombstoneAction {
  return typeof action === 'string' && Object.hasOwn(ACTIONS, action) && ACTIONS[action as SurfaceAction].plans !== 'restore'
}

/** The tombstone actions, in table order. */
export const TOMBSTONE_ACTIONS: readonly TombstoneAction[] = Object.freeze(SURFACE_ACTIONS.filter(isTombstoneAction))

/** The tombstone actions whose rows are hidden, in table order. */
export const REMOVAL_ACTIONS: readonly RemovalAction[] = Object.freeze(TOMBSTONE_ACTIONS.filter((a): a is RemovalAction => ACTIONS[a].effect === 'removed'))

/** The actions a batch accepts, in table order. */
export const BATCH_ACTIONS: readonly BatchAction[] = Object.freeze(SURFACE_ACTIONS.filter((a): a is BatchAction => ACTIONS[a].inBatch))

/** The tombstone actions a batch accepts, in table order. */
export const BATCH_REMOVAL_ACTIONS: readonly BatchRemovalAction[] = Object.freeze(BATCH_ACTIONS.filter((a): a is BatchRemovalAction => isTombstoneAction(a)))

/**
 * The actions a row group offers, in table order (the button order).
 * @param group - the row group.
 * @returns the actions whose `offeredOn` names it (frozen).
 */
export function actionsOfferedOn(group: RowGroup): readonly SurfaceAction[] {
  return Object.freeze(SURFACE_ACTIONS.filter((a) => (ACTIONS[a].offeredOn as readonly RowGroup[]).includes(group)))
}

/**
 * Whether an action's row button asks for a second click.
 * @param action - an action of the table.
 * @returns `ACTIONS[action].confirm`.
 */
export function isConfirmed(action: SurfaceAction): action is ConfirmedAction {
  return ACTIONS[action].confirm
}

/**
 * The planning of a tombstone action: its shape and what it may address.
 * @param action - a tombstone action.
 * @returns `{ plans, targets }` from its row.
 */
export function removalPlanning(action: TombstoneAction): RemovalPlanning {
  return ACTIONS[action]
}

/** Every dictionary key the table names, for the dictionaries' check. */
export type ActionTextKey = { [A in SurfaceAction]: Table[A]['texts'][keyof Table[A]['texts']] }[SurfaceAction]

/** The counted bases the table names (`armedLabel`, `undo`, `unsaved`). */
export type ActionCountedBase = { [A in SurfaceAction]: Table[A]['texts'] extends infer T ? T[Extract<keyof T, 'armedLabel' | 'undo' | 'unsaved'>] : never }[SurfaceAction]
