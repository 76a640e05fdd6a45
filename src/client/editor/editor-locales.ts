/**
 * The conversation editor's strings, registered with the DSH locale service under their own
 * namespace {@link EDITOR_LOCALE_NS} (the rc.8 locale service refuses a second registration of
 * one namespace and locale). `zh` is the source of truth for the key set; `en` is typed against
 * it. Counted texts have `.one`/`.other` keys (see `text/locales.ts`).
 *
 * @module dsh-message-recall/client/editor/editor-locales
 */

/** Locale namespace of the editor. */
export const EDITOR_LOCALE_NS = 'dsh-message-recall.editor'

/** The editor's keyboard shortcut, as the README documents it. */
export const EDITOR_SHORTCUT = 'Alt+Shift+E'

/** Chinese dictionary; its keys are the editor's key set. */
export const editorZh = {
  'button': '编辑',
  'button.label': '编辑对话：选择要移除或恢复的消息（{shortcut}）',
  'title': '编辑对话',
  'loading': '正在读取完整对话…',
  'loadFailed': '无法读取对话：{message}',
  'turn': '第 {turn} 轮',
  'beforeTurns': '第一轮之前',
  'role.user': '你',
  'role.assistant': '助手',
  'role.tool': '工具',
  'select.prompt': '移除这条消息：{text}',
  'select.step': '移除这一步（回复及其工具结果）：{text}',
  'from': '从这里起',
  'from.label': '移除这一条及之后的全部内容：{text}',
  'restore': '恢复',
  'restore.label': '把这条消息原位恢复：{text}',
  'state.removed': '已移除',
  'state.excluded': '已排除',
  'state.folded': '已压缩',
  'leave.one': '{count} 条消息、约 {tokens} 个词元将离开上下文',
  'leave.other': '{count} 条消息、约 {tokens} 个词元将离开上下文',
  'back.one': '{count} 条恢复',
  'back.other': '{count} 条恢复',
  'separator': '；',
  'nothing': '尚未选择任何内容',
  'apply': '应用',
  'discard': '放弃',
  'busy': '智能体正在工作，停下后才能应用',
  'checking': '正在向主机确认…',
  'refused': '无法执行：{reason}',
  'applyFailed': '没有做任何改动：{reason}',
  'keys': '方向键移动，空格选择，回车应用，Esc 放弃',
  'empty': '这个会话还没有消息',
} as const

/** A key of the editor's dictionaries. */
export type EditorLocaleKey = keyof typeof editorZh

/** English dictionary, checked against the `zh` key set. */
export const editorEn: { readonly [K in EditorLocaleKey]: string } = {
  'button': 'Edit',
  'button.label': 'Edit the conversation: choose messages to remove or bring back ({shortcut})',
  'title': 'Edit conversation',
  'loading': 'Reading the whole conversation…',
  'loadFailed': 'Could not read the conversation: {message}',
  'turn': 'Turn {turn}',
  'beforeTurns': 'Before the first turn',
  'role.user': 'You',
  'role.assistant': 'Assistant',
  'role.tool': 'Tool',
  'select.prompt': 'Remove this message: {text}',
  'select.step': 'Remove this step (the answer and its tool results): {text}',
  'from': 'From here',
  'from.label': 'Remove this and everything after it: {text}',
  'restore': 'Restore',
  'restore.label': 'Bring this message back in place: {text}',
  'state.removed': 'Removed',
  'state.excluded': 'Excluded',
  'state.folded': 'Compacted',
  'leave.one': '{count} message, ~{tokens} tokens leave the context',
  'leave.other': '{count} messages, ~{tokens} tokens leave the context',
  'back.one': '{count} comes back',
  'back.other': '{count} come back',
  'separator': '; ',
  'nothing': 'Nothing selected yet',
  'apply': 'Apply',
  'discard': 'Discard',
  'busy': 'The agent is working; Apply is possible once it stops',
  'checking': 'Checking with the host…',
  'refused': 'Not possible: {reason}',
  'applyFailed': 'Nothing was changed: {reason}',
  'keys': 'Arrows move, Space selects, Enter applies, Escape discards',
  'empty': 'This session has no messages yet',
}

/** Both dictionaries, in the shape `locale.register(ns, dicts)` takes. */
export const EDITOR_DICTIONARIES: { readonly zh: Record<EditorLocaleKey, string>; readonly en: Record<EditorLocaleKey, string> } = { zh: editorZh, en: editorEn }

/**
 * The counter line: "12 messages, ~3,400 tokens leave the context; 1 comes back".
 * @param t - translate bound to {@link EDITOR_LOCALE_NS}.
 * @param locale - the active locale id (`en` or `zh`), for the number format.
 * @param counts - message rows that leave, their estimated tokens, and units that come back.
 * @returns the localized line, or the "nothing selected" text when all three are 0.
 */
export function counterText(t: (key: string, params?: Record<string, string | number>) => string, locale: string, counts: { messages: number; tokens: number; back: number }): string {
  const format = new Intl.NumberFormat(locale === 'zh' ? 'zh-CN' : 'en-US')
  const parts: string[] = []
  if (counts.messages > 0) parts.push(t(counts.messages === 1 ? 'leave.one' : 'leave.other', { count: format.format(counts.messages), tokens: format.format(counts.tokens) }))
  if (counts.back > 0) parts.push(t(counts.back === 1 ? 'back.one' : 'back.other', { count: format.format(counts.back) }))
  return parts.length === 0 ? t('nothing') : parts.join(t('separator'))
}
