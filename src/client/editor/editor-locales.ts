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
  'state.folded': '已压缩进摘要',
  'cost.folded': '在压缩摘要中',
  'rewrite.one': '压缩摘要将重写，去掉 {count} 条已压缩的消息：调用一次模型，输入约 {tokens} 个词元',
  'rewrite.other': '压缩摘要将重写，去掉 {count} 条已压缩的消息：调用一次模型，输入约 {tokens} 个词元',
  'apply.rewrite': '应用并重写摘要？（调用模型，约 {tokens} 个词元）',
  'rewriting': '正在重写摘要…（Esc 取消）',
  'cancel': '取消',
  'cancel.label': '取消重写摘要，什么都不会写入',
  'rewriteFailed': '没有做任何改动：{reason}（{detail}）',
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
  'stay.one': '，其中 {count} 条仍留在视图中',
  'stay.other': '，其中 {count} 条仍留在视图中',
  'context': '上下文：{now} → {after} 个词元',
  'basis.meter': '（词元计量器的估算）',
  'basis.chars': '（按字符数 ÷ 4 估算）',
  'cost.one': '{tokens} 个词元 · 占上下文 {share}',
  'cost.other': '{tokens} 个词元 · 占上下文 {share}',
  'cost.none': '现在不占上下文',
  'sort': '最大的在前',
  'sort.label': '按现在占用的词元排序，最大的在前（再按一次恢复对话顺序）',
  'exclude': '排除',
  'exclude.label': '改为排除而非删除（留在视图中，对模型隐藏）：{text}',
  'excludeAll': '全部改为排除',
  'excludeAll.label': '把所有选中的内容改为排除而非删除（留在视图中，对模型隐藏）',
  'presets': '快速选择（不会选中最近一轮）',
  'preset.old': '早于最近 N 轮的工具输出',
  'preset.old.label': '选中早于最近 {n} 轮的工具输出',
  'preset.large': '超过 K 个词元的工具输出',
  'preset.large.label': '选中超过 {k} 个词元的工具输出',
  'preset.compaction': '最近一次压缩之前的全部内容',
  'preset.compaction.label': '选中最近一次压缩之前仍在上下文中的全部内容',
  'preset.n': '轮数 N',
  'preset.k': '词元数 K',
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
  'state.folded': 'Summarized',
  'cost.folded': 'In the compaction summary',
  'rewrite.one': 'The compaction summary is rewritten without {count} summarized message: a model call of about {tokens} input tokens',
  'rewrite.other': 'The compaction summary is rewritten without {count} summarized messages: a model call of about {tokens} input tokens',
  'apply.rewrite': 'Apply and rewrite the summary? (model call, ~{tokens} tokens)',
  'rewriting': 'Rewriting the summary… (Esc cancels)',
  'cancel': 'Cancel',
  'cancel.label': 'Cancel the summary rewrite; nothing is written',
  'rewriteFailed': 'Nothing was changed: {reason} ({detail})',
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
  'stay.one': ', {count} of them stays in view',
  'stay.other': ', {count} of them stay in view',
  'context': 'Context: {now} → {after} tokens',
  'basis.meter': ' (token meter estimate)',
  'basis.chars': ' (estimated as characters ÷ 4)',
  'cost.one': '{tokens} token · {share} of the context',
  'cost.other': '{tokens} tokens · {share} of the context',
  'cost.none': 'Costs nothing now',
  'sort': 'Largest first',
  'sort.label': 'Sort by tokens in the context now, largest first (press again for conversation order)',
  'exclude': 'Exclude',
  'exclude.label': 'Exclude instead of delete (keep it in view, hide it from the model): {text}',
  'excludeAll': 'Exclude all selected',
  'excludeAll.label': 'Exclude everything selected instead of deleting it (keep it in view, hide it from the model)',
  'presets': 'Quick selections (never the most recent turn)',
  'preset.old': 'Tool output older than the last N turns',
  'preset.old.label': 'Select tool output older than the last {n} turns',
  'preset.large': 'Tool output larger than K tokens',
  'preset.large.label': 'Select tool output larger than {k} tokens',
  'preset.compaction': 'Everything before the last compaction',
  'preset.compaction.label': 'Select everything still in the context from before the last compaction',
  'preset.n': 'Turns N',
  'preset.k': 'Tokens K',
}

/** Both dictionaries, in the shape `locale.register(ns, dicts)` takes. */
export const EDITOR_DICTIONARIES: { readonly zh: Record<EditorLocaleKey, string>; readonly en: Record<EditorLocaleKey, string> } = { zh: editorZh, en: editorEn }

/** Translate bound to {@link EDITOR_LOCALE_NS}. */
type EditorTranslate = (key: string, params?: Record<string, string | number>) => string

const formats = new Map<string, Intl.NumberFormat>()

/** The number format of a locale id (`percent`: at most one decimal), made once per locale. */
function numberFormat(locale: string, percent = false): Intl.NumberFormat {
  const key = `${locale}/${percent}`
  let format = formats.get(key)
  if (format === undefined) {
    format = new Intl.NumberFormat(locale === 'zh' ? 'zh-CN' : 'en-US', percent ? { style: 'percent', maximumFractionDigits: 1 } : {})
    formats.set(key, format)
  }
  return format
}

/**
 * The counter line: "12 messages, ~3,400 tokens leave the context, 3 of them stay in view; 1 comes back".
 * @param t - translate bound to {@link EDITOR_LOCALE_NS}.
 * @param locale - the active locale id (`en` or `zh`), for the number format.
 * @param counts - message rows that leave, their estimated tokens, the rows of them that stay in
 *   view (excluded; absent: 0), and units that come back.
 * @returns the localized line, or the "nothing selected" text when all counts are 0.
 */
export function counterText(t: EditorTranslate, locale: string, counts: { messages: number; tokens: number; inView?: number; back: number }): string {
  const format = numberFormat(locale)
  const parts: string[] = []
  const inView = counts.inView ?? 0
  if (counts.messages > 0) {
    const leave = t(counts.messages === 1 ? 'leave.one' : 'leave.other', { count: format.format(counts.messages), tokens: format.format(counts.tokens) })
    parts.push(inView > 0 ? leave + t(inView === 1 ? 'stay.one' : 'stay.other', { count: format.format(inView) }) : leave)
  }
  if (counts.back > 0) parts.push(t(counts.back === 1 ? 'back.one' : 'back.other', { count: format.format(counts.back) }))
  return parts.length === 0 ? t('nothing') : parts.join(t('separator'))
}

/**
 * The figure at the top: "Context: 38,200 → 21,700 tokens (token meter estimate)".
 * @param t - translate bound to {@link EDITOR_LOCALE_NS}.
 * @param locale - the active locale id (`en` or `zh`), for the number format.
 * @param figure - tokens in the context now and after the selection, and which estimate.
 * @returns the localized line.
 */
export function contextText(t: EditorTranslate, locale: string, figure: { now: number; after: number; basis: 'meter' | 'chars' }): string {
  const format = numberFormat(locale)
  return t('context', { now: format.format(figure.now), after: format.format(figure.after) }) + t(`basis.${figure.basis}`)
}

/**
 * A unit's cost: "1,234 tokens · 3.2% of the context", "In the compaction summary" for a unit a
 * compaction folded (`folded`), or "Costs nothing now" for one that is removed or excluded
 * (`inContext` false).
 * @param t - translate bound to {@link EDITOR_LOCALE_NS}.
 * @param locale - the active locale id (`en` or `zh`), for the number and percent formats.
 * @param cost - the unit's tokens in the context now, its share (a fraction in [0, 1]), whether it
 *   is in the context, and whether a compaction summarized it.
 * @returns the localized text; the share has at most one decimal.
 */
export function costText(t: EditorTranslate, locale: string, cost: { tokens: number; share: number; inContext: boolean; folded?: boolean }): string {
  if (cost.folded === true) return t('cost.folded')
  if (!cost.inContext) return t('cost.none')
  const share = numberFormat(locale, true).format(cost.share)
  return t(cost.tokens === 1 ? 'cost.one' : 'cost.other', { tokens: numberFormat(locale).format(cost.tokens), share })
}

/**
 * What Apply does to the compaction summary: "The compaction summary is rewritten without 2
 * summarized messages: a model call of about 1,234 input tokens".
 * @param t - translate bound to {@link EDITOR_LOCALE_NS}.
 * @param locale - the active locale id (`en` or `zh`), for the number format.
 * @param rewrite - the summarized messages that leave the summary and the call's estimated input tokens (the plan's `summaryRewrite`).
 * @returns the localized line.
 */
export function rewriteText(t: EditorTranslate, locale: string, rewrite: { removed: number; tokens: number }): string {
  const format = numberFormat(locale)
  return t(rewrite.removed === 1 ? 'rewrite.one' : 'rewrite.other', { count: format.format(rewrite.removed), tokens: format.format(rewrite.tokens) })
}

/**
 * The Apply button's text: "Apply", or once pressed on a selection that rewrites the summary,
 * "Apply and rewrite the summary? (model call, ~1,234 tokens)".
 * @param t - translate bound to {@link EDITOR_LOCALE_NS}.
 * @param locale - the active locale id (`en` or `zh`), for the number format.
 * @param armedTokens - the armed rewrite's estimated input tokens, or `null` when Apply is not armed.
 * @returns the localized text.
 */
export function applyText(t: EditorTranslate, locale: string, armedTokens: number | null): string {
  return armedTokens === null ? t('apply') : t('apply.rewrite', { tokens: numberFormat(locale).format(armedTokens) })
}
