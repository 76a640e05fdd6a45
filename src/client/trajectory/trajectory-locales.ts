/**
 * The Trajectory marks' Chinese and English dictionaries (their own namespace). The action names
 * come from the plugin's main dictionaries (`action.recall`, `action.delete`, …), so a mark names
 * an action exactly as its button does.
 *
 * @module dsh-message-recall/client/trajectory/trajectory-locales
 */

/** Locale namespace of the Trajectory marks. */
export const TRAJECTORY_LOCALE_NS = 'dsh-message-recall.trajectory'

/** Chinese. `{action}` is the action's button name, `{time}` local `YYYY-MM-DD HH:MM`. */
export const trajectoryZh = {
  'row.removed': '已由“{action}”移除 · {time}',
  'row.excluded': '已排除 · 不发送给模型',
  'inspector.removed': '这条事件已由“{action}”移除（{time}），内容已隐藏。',
  'inspector.excluded': '这条事件已排除（{time}）：它留在视图中，但不发送给模型。',
  'inspector.show': '显示已移除的内容',
} as const

/** Keys of the Trajectory dictionaries. */
export type TrajectoryLocaleKey = keyof typeof trajectoryZh

/** English. */
export const trajectoryEn: { readonly [K in TrajectoryLocaleKey]: string } = {
  'row.removed': 'Removed by {action} · {time}',
  'row.excluded': 'Excluded · not sent to the model',
  'inspector.removed': 'Removed by {action} at {time}. Its content is hidden.',
  'inspector.excluded': 'Excluded at {time}: it stays in view but is not sent to the model.',
  'inspector.show': 'Show removed content',
}

/** Both dictionaries, as `ctx.locale.register` takes them. */
export const TRAJECTORY_DICTIONARIES: { readonly zh: Record<TrajectoryLocaleKey, string>; readonly en: Record<TrajectoryLocaleKey, string> } = { zh: trajectoryZh, en: trajectoryEn }
