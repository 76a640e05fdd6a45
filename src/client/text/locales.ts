/**
 * The client's strings, registered with the DSH locale service under {@link LOCALE_NS}. `zh` is
 * the source of truth for the key set; `en` is typed against it, so a key missing from either
 * dictionary fails the typecheck. Placeholders use the locale service's `{name}` form.
 *
 * A text that counts something has two keys, `<base>.one` and `<base>.other`, picked by
 * {@link countedKey}; the rc.8 locale service (`dsh-client-locale`, `translate`) only substitutes
 * `{name}` placeholders and has no plural rules. Chinese does not inflect for number, so its two
 * entries read the same.
 *
 * @module dsh-message-recall/client/text/locales
 */
import type { ActionCountedBase, ActionTextKey } from '../../shared/actions'
import type { RecallErrorCode } from '../wire/api'
import type { Translate } from '../wire/rc8'

/** Locale namespace of this plugin (also its slot `locale` option). */
export const LOCALE_NS = 'dsh-message-recall'

/** Chinese dictionary; its keys are the plugin's key set. */
export const zh = {
  'action.recall': '撤回',
  'action.delete': '删除',
  'action.deleteFrom': '删除以下',
  'label.recall': '撤回这条消息，并把文字放回输入框',
  'label.delete.message': '删除这条消息',
  'label.delete.step': '删除这一步：模型回复及其工具结果',
  'label.deleteFrom': '从这里删除到对话末尾',
  'armed.delete': '确认删除 {count} 条？',
  'armed.deleteFrom': '确认删除以下 {count} 条？',
  'armed.label.one': '再点一次，删除 {count} 条消息',
  'armed.label.other': '再点一次，删除 {count} 条消息',
  'busy': '处理中…',
  'notice.images.unreadable.one': '已撤回。{count} 张图片无法从主机读回，没有放回输入框：{names}',
  'notice.images.unreadable.other': '已撤回。{count} 张图片无法从主机读回，没有放回输入框：{names}',
  'notice.images.unsupported.one': '已撤回。{count} 张图片的格式输入框不接受（只接受 PNG、JPEG、WebP、GIF）：{names}',
  'notice.images.unsupported.other': '已撤回。{count} 张图片的格式输入框不接受（只接受 PNG、JPEG、WebP、GIF）：{names}',
  'notice.images.busy.one': '已撤回。输入框正在发送，{count} 张图片没有放回：{names}',
  'notice.images.busy.other': '已撤回。输入框正在发送，{count} 张图片没有放回：{names}',
  'notice.images.unavailable.one': '已撤回。这个页面的输入框不能添加图片，{count} 张图片没有放回：{names}',
  'notice.images.unavailable.other': '已撤回。这个页面的输入框不能添加图片，{count} 张图片没有放回：{names}',
  'unsaved.recall.one': '已撤回，但还没有保存到磁盘。如果主机在下次保存前崩溃，这条消息会回来。',
  'unsaved.recall.other': '已撤回，但还没有保存到磁盘。如果主机在下次保存前崩溃，这条消息会回来。',
  'unsaved.delete.one': '已删除 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它会回来。',
  'unsaved.delete.other': '已删除 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它们会回来。',
  'unsaved.deleteFrom.one': '已删除以下 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它会回来。',
  'unsaved.deleteFrom.other': '已删除以下 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它们会回来。',
  'unsaved.exclude.one': '已从模型上下文中排除 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，排除会失效。',
  'unsaved.exclude.other': '已从模型上下文中排除 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，排除会失效。',
  'unsaved.restore.one': '已恢复 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它会再次被移除。',
  'unsaved.restore.other': '已恢复 {count} 条消息，但还没有保存到磁盘。如果主机在下次保存前崩溃，它们会再次被移除。',
  'unsaved.apply.one': '已应用 {count} 项改动，但还没有保存到磁盘。如果主机在下次保存前崩溃，会话会回到改动之前的样子。',
  'unsaved.apply.other': '已应用 {count} 项改动，但还没有保存到磁盘。如果主机在下次保存前崩溃，会话会回到改动之前的样子。',
  'unsaved.save': '重新保存',
  'unsaved.label.save': '再次尝试把这个会话保存到磁盘',
  'unsaved.saving': '保存中…',
  'unsaved.saved': '已保存到磁盘。',
  'unsaved.stillFailing': '仍然没能保存到磁盘。磁盘可写后再试一次。',
  'notice.dismiss': '关闭',
  'action.exclude': '排除',
  'label.exclude': '从模型上下文中排除；消息仍然可见',
  'armed.exclude': '确认排除 {count} 条？',
  'armed.excludeLabel.one': '再点一次，从模型上下文中排除 {count} 条消息',
  'armed.excludeLabel.other': '再点一次，从模型上下文中排除 {count} 条消息',
  'excluded.badge': '不发送给模型',
  'folded.badge': '已压缩进摘要：模型读到的是压缩摘要，不是这条消息',
  'summary.button': '摘要',
  'summary.label': '查看并编辑模型现在读到的压缩摘要',
  'summary.title': '压缩摘要',
  'summary.hint': '模型在每一轮都会读到这份摘要。保存会写入一份新的摘要（不调用模型）；之前的摘要仍保留在日志里。',
  'summary.textLabel': '摘要文本',
  'summary.save': '保存',
  'summary.cancel': '取消',
  'armed.rewrite.delete': '删除 {count} 条并重写摘要？（调用模型，约 {tokens} 个 token）',
  'armed.rewrite.exclude': '排除 {count} 条并重写摘要？（调用模型，约 {tokens} 个 token）',
  'armed.rewrite.recall': '撤回并重写摘要？（调用模型，约 {tokens} 个 token）',
  'armed.rewrite.deleteFrom': '删除以下 {count} 条并重写摘要？（调用模型，约 {tokens} 个 token）',
  'armed.rewriteOnwardLabel.one': '再点一次，从这里删到末尾共 {count} 条消息：模型会重新写一份不含其中已压缩消息的压缩摘要，输入约 {tokens} 个 token',
  'armed.rewriteOnwardLabel.other': '再点一次，从这里删到末尾共 {count} 条消息：模型会重新写一份不含其中已压缩消息的压缩摘要，输入约 {tokens} 个 token',
  'armed.rewriteRecallLabel.one': '再点一次，撤回这条已压缩的消息：文字回到输入框，模型会重新写一份不含它的压缩摘要，输入约 {tokens} 个 token',
  'armed.rewriteRecallLabel.other': '再点一次，撤回这条已压缩的消息：文字回到输入框，模型会重新写一份不含它们的压缩摘要，输入约 {tokens} 个 token',
  'armed.rewriteLabel.one': '再点一次，删除 {count} 条已压缩的消息：模型会重新写一份不含它的压缩摘要，输入约 {tokens} 个 token',
  'armed.rewriteLabel.other': '再点一次，删除 {count} 条已压缩的消息：模型会重新写一份不含它们的压缩摘要，输入约 {tokens} 个 token',
  'armed.rewriteExcludeLabel.one': '再点一次，把 {count} 条已压缩的消息排除出模型上下文：模型会重新写一份不含它的压缩摘要，输入约 {tokens} 个 token',
  'armed.rewriteExcludeLabel.other': '再点一次，把 {count} 条已压缩的消息排除出模型上下文：模型会重新写一份不含它们的压缩摘要，输入约 {tokens} 个 token',
  'rewrite.progress': '正在重写摘要…（Esc 取消）',
  'rewrite.progressLabel': '正在用模型重写压缩摘要；按 Esc 取消，取消后什么都不会写入',
  'action.restore': '恢复',
  'label.restore': '把这条消息放回原处，模型会重新看到它',
  'action.forkBefore': '打开副本',
  'label.forkBefore': '打开一个新会话，里面是这次移除之前的对话',
  'undo.recall.one': '已撤回你的消息',
  'undo.recall.other': '已撤回你的消息',
  'undo.delete.one': '已删除 {count} 条消息',
  'undo.delete.other': '已删除 {count} 条消息',
  'undo.deleteFrom.one': '已删除以下 {count} 条消息',
  'undo.deleteFrom.other': '已删除以下 {count} 条消息',
  'undo.exclude.one': '已从模型上下文中排除 {count} 条消息',
  'undo.exclude.other': '已从模型上下文中排除 {count} 条消息',
  'undo.undo': '撤销',
  'undo.label.undo': '撤销这次移除，把消息放回原处',
  'undo.restored': '消息已放回原处',
  'undo.restored.rewrite': '之前的摘要已放回，这条消息又在摘要里了',
  'undo.restored.recall': '消息已放回原处；输入框里的文字保持不变',
  'panel.button': '已移除',
  'panel.label.one': '已移除的消息：{count} 项仍在生效',
  'panel.label.other': '已移除的消息：{count} 项仍在生效',
  'panel.title': '已移除的消息',
  'panel.close': '关闭',
  'panel.action.recall': '撤回',
  'panel.action.delete': '删除',
  'panel.action.deleteFrom': '删除以下',
  'panel.action.exclude': '排除',
  'panel.count.one': '{count} 条消息',
  'panel.count.other': '{count} 条消息',
  'panel.tokens.one': '约 {count} 个 token',
  'panel.tokens.other': '约 {count} 个 token',
  'panel.notLoaded': '内容不在已加载的历史中',
  'panel.restored': '已恢复',
  'panel.clock.md': '{m}月{d}日',
  'panel.clock.ymd': '{y}年{m}月{d}日',
  'panel.cutShort.one': '一次批量应用在写入磁盘时被中断：{total} 项改动中有 {count} 项没有生效，可以在编辑器中重新应用',
  'panel.cutShort.other': '一次批量应用在写入磁盘时被中断：{total} 项改动中有 {count} 项没有生效，可以在编辑器中重新应用',
  'panel.cutShort.more.one': '还有 {count} 项',
  'panel.cutShort.more.other': '还有 {count} 项',
  'panel.cutShort.action.delete': '删除',
  'panel.cutShort.action.deleteFrom': '删除以下',
  'panel.cutShort.action.exclude': '排除',
  'panel.cutShort.action.restore': '恢复',
  'error.NOT_RESTORABLE': '这次移除无法原地恢复，可以打开一个副本',
  'error.STALE_VIEW': '对话刚刚有了变化，请再试一次',
  'error.AGENT_BUSY': '智能体正在工作，请等它停下再试',
  'error.TARGET_NOT_FOUND': '这条消息已不在对话中',
  'error.NOT_A_USER_MESSAGE': '只能撤回你自己发送的消息',
  'error.NOT_DELETABLE': '这条消息不能删除',
  'error.SPAN_NOT_CONTIGUOUS': '这一步中间夹着其他内容，无法整体删除',
  'error.SESSION_NOT_LIVE': '主机上没有加载这个会话',
  'error.SUMMARY_FAILED': '摘要没能重写，什么都没有改变',
  'error.NOT_A_SUMMARY': '这不是当前的压缩摘要',
  'error.PERSIST_FAILED': '改动没能保存到磁盘',
  'error.FORBIDDEN': '主机拒绝了这个请求',
  'error.NETWORK': '连不上主机',
  'error.CANCELLED': '已取消，摘要没有重写',
  'error.unknown': '操作失败（{code}）',
} as const

/** A key of this plugin's dictionaries. */
export type LocaleKey = keyof typeof zh

/** English dictionary, checked against the `zh` key set. */
export const en: { readonly [K in LocaleKey]: string } = {
  'action.recall': 'Recall',
  'action.delete': 'Delete',
  'action.deleteFrom': 'Delete onward',
  'label.recall': 'Recall this message and put its text back in the composer',
  'label.delete.message': 'Delete this message',
  'label.delete.step': 'Delete this step: the answer and its tool results',
  'label.deleteFrom': 'Delete from here to the end of the conversation',
  'armed.delete': 'Delete {count}?',
  'armed.deleteFrom': 'Delete {count} onward?',
  'armed.label.one': 'Click again to delete {count} message',
  'armed.label.other': 'Click again to delete {count} messages',
  'busy': 'Working…',
  'notice.images.unreadable.one': 'Recalled. {count} image could not be read back from the host, so it is not in the composer: {names}',
  'notice.images.unreadable.other': 'Recalled. {count} images could not be read back from the host, so they are not in the composer: {names}',
  'notice.images.unsupported.one': 'Recalled. {count} image has a type the composer does not take (only PNG, JPEG, WebP and GIF): {names}',
  'notice.images.unsupported.other': 'Recalled. {count} images have a type the composer does not take (only PNG, JPEG, WebP and GIF): {names}',
  'notice.images.busy.one': 'Recalled. The composer was sending, so {count} image did not go back into it: {names}',
  'notice.images.busy.other': 'Recalled. The composer was sending, so {count} images did not go back into it: {names}',
  'notice.images.unavailable.one': 'Recalled. This page\'s composer cannot take images, so {count} image did not go back: {names}',
  'notice.images.unavailable.other': 'Recalled. This page\'s composer cannot take images, so {count} images did not go back: {names}',
  'unsaved.recall.one': 'Recalled, but not saved to disk yet. If the host crashes before the next save, the message comes back.',
  'unsaved.recall.other': 'Recalled, but not saved to disk yet. If the host crashes before the next save, the message comes back.',
  'unsaved.delete.one': 'Deleted {count} message, but not saved to disk yet. If the host crashes before the next save, it comes back.',
  'unsaved.delete.other': 'Deleted {count} messages, but not saved to disk yet. If the host crashes before the next save, they come back.',
  'unsaved.deleteFrom.one': 'Deleted {count} message onward, but not saved to disk yet. If the host crashes before the next save, it comes back.',
  'unsaved.deleteFrom.other': 'Deleted {count} messages onward, but not saved to disk yet. If the host crashes before the next save, they come back.',
  'unsaved.exclude.one': "Excluded {count} message from the model's context, but not saved to disk yet. If the host crashes before the next save, the exclusion is lost.",
  'unsaved.exclude.other': "Excluded {count} messages from the model's context, but not saved to disk yet. If the host crashes before the next save, the exclusion is lost.",
  'unsaved.restore.one': 'Restored {count} message, but not saved to disk yet. If the host crashes before the next save, it is removed again.',
  'unsaved.restore.other': 'Restored {count} messages, but not saved to disk yet. If the host crashes before the next save, they are removed again.',
  'unsaved.apply.one': 'Applied {count} change, but not saved to disk yet. If the host crashes before the next save, the conversation goes back to how it was.',
  'unsaved.apply.other': 'Applied {count} changes, but not saved to disk yet. If the host crashes before the next save, the conversation goes back to how it was.',
  'unsaved.save': 'Save again',
  'unsaved.label.save': 'Try again to save this session to disk',
  'unsaved.saving': 'Saving…',
  'unsaved.saved': 'Saved to disk.',
  'unsaved.stillFailing': 'Still not saved to disk. Try again once the disk can be written.',
  'notice.dismiss': 'Dismiss',
  'action.exclude': 'Exclude',
  'label.exclude': "Exclude from the model's context; it stays visible",
  'armed.exclude': 'Exclude {count}?',
  'armed.excludeLabel.one': "Click again to exclude {count} message from the model's context",
  'armed.excludeLabel.other': "Click again to exclude {count} messages from the model's context",
  'excluded.badge': 'Not sent to the model',
  'folded.badge': 'Summarized: the model reads the compaction summary, not this message',
  'summary.button': 'Summary',
  'summary.label': 'See and edit the compaction summary the model reads now',
  'summary.title': 'Compaction summary',
  'summary.hint': 'The model reads this summary on every turn. Save writes a new summary (no model call); the earlier one stays in the log.',
  'summary.textLabel': 'Summary text',
  'summary.save': 'Save',
  'summary.cancel': 'Cancel',
  'armed.rewrite.delete': 'Delete {count} and rewrite the summary? (model call, ~{tokens} tokens)',
  'armed.rewrite.exclude': 'Exclude {count} and rewrite the summary? (model call, ~{tokens} tokens)',
  'armed.rewrite.recall': 'Recall and rewrite the summary? (model call, ~{tokens} tokens)',
  'armed.rewrite.deleteFrom': 'Delete {count} onward and rewrite the summary? (model call, ~{tokens} tokens)',
  'armed.rewriteOnwardLabel.one': 'Click again to delete {count} message from here to the end: the model writes the compaction summary again without the summarized ones, from about {tokens} input tokens',
  'armed.rewriteOnwardLabel.other': 'Click again to delete {count} messages from here to the end: the model writes the compaction summary again without the summarized ones, from about {tokens} input tokens',
  'armed.rewriteRecallLabel.one': 'Click again to recall this summarized message: its text returns to the composer and the model writes the compaction summary again without it, from about {tokens} input tokens',
  'armed.rewriteRecallLabel.other': 'Click again to recall this summarized message: its text returns to the composer and the model writes the compaction summary again without them, from about {tokens} input tokens',
  'armed.rewriteLabel.one': 'Click again to delete {count} summarized message: the model writes the compaction summary again without it, from about {tokens} input tokens',
  'armed.rewriteLabel.other': 'Click again to delete {count} summarized messages: the model writes the compaction summary again without them, from about {tokens} input tokens',
  'armed.rewriteExcludeLabel.one': "Click again to exclude {count} summarized message from the model's context: the model writes the compaction summary again without it, from about {tokens} input tokens",
  'armed.rewriteExcludeLabel.other': "Click again to exclude {count} summarized messages from the model's context: the model writes the compaction summary again without them, from about {tokens} input tokens",
  'rewrite.progress': 'Rewriting the summary… (Esc cancels)',
  'rewrite.progressLabel': 'The model is writing the compaction summary again; press Escape to cancel, and nothing is written',
  'action.restore': 'Restore',
  'label.restore': 'Put this message back in place; the model sees it again',
  'action.forkBefore': 'Open a copy',
  'label.forkBefore': 'Open a new session with the conversation from before this removal',
  'undo.recall.one': 'Recalled your message',
  'undo.recall.other': 'Recalled your message',
  'undo.delete.one': 'Deleted {count} message',
  'undo.delete.other': 'Deleted {count} messages',
  'undo.deleteFrom.one': 'Deleted {count} message onward',
  'undo.deleteFrom.other': 'Deleted {count} messages onward',
  'undo.exclude.one': "Excluded {count} message from the model's context",
  'undo.exclude.other': "Excluded {count} messages from the model's context",
  'undo.undo': 'Undo',
  'undo.label.undo': 'Undo this removal and put the message back in place',
  'undo.restored': 'The message is back in place',
  'undo.restored.rewrite': 'The earlier summary is back; the message is summarized again',
  'undo.restored.recall': 'The message is back in place. The composer keeps its text.',
  'panel.button': 'Removed',
  'panel.label.one': 'Removed messages: {count} removal in effect',
  'panel.label.other': 'Removed messages: {count} removals in effect',
  'panel.title': 'Removed messages',
  'panel.close': 'Close',
  'panel.action.recall': 'Recalled',
  'panel.action.delete': 'Deleted',
  'panel.action.deleteFrom': 'Deleted onward',
  'panel.action.exclude': 'Excluded',
  'panel.count.one': '{count} message',
  'panel.count.other': '{count} messages',
  'panel.tokens.one': '≈ {count} token',
  'panel.tokens.other': '≈ {count} tokens',
  'panel.notLoaded': 'Content not in the loaded history',
  'panel.restored': 'Restored',
  'panel.clock.md': '{m}/{d}',
  'panel.clock.ymd': '{y}-{m}-{d}',
  'panel.cutShort.one': 'An Apply was cut short while it was saved: {count} of its {total} changes did not take effect. Apply it again in the editor.',
  'panel.cutShort.other': 'An Apply was cut short while it was saved: {count} of its {total} changes did not take effect. Apply them again in the editor.',
  'panel.cutShort.more.one': 'and {count} more',
  'panel.cutShort.more.other': 'and {count} more',
  'panel.cutShort.action.delete': 'Delete',
  'panel.cutShort.action.deleteFrom': 'Delete onward',
  'panel.cutShort.action.exclude': 'Exclude',
  'panel.cutShort.action.restore': 'Restore',
  'error.NOT_RESTORABLE': 'This removal cannot be undone in place. Open a copy instead.',
  'error.STALE_VIEW': 'The conversation just changed. Try again.',
  'error.AGENT_BUSY': 'The agent is working. Try again when it stops.',
  'error.TARGET_NOT_FOUND': 'This message is no longer in the conversation.',
  'error.NOT_A_USER_MESSAGE': 'Only messages you sent can be recalled.',
  'error.NOT_DELETABLE': 'This message cannot be deleted.',
  'error.SPAN_NOT_CONTIGUOUS': 'Other content sits inside this step, so it cannot be removed as a whole.',
  'error.SESSION_NOT_LIVE': 'This session is not loaded on the host.',
  'error.SUMMARY_FAILED': 'The summary could not be rewritten; nothing changed.',
  'error.NOT_A_SUMMARY': 'This is not the current compaction summary.',
  'error.PERSIST_FAILED': 'The change could not be saved to disk.',
  'error.FORBIDDEN': 'The host refused the request.',
  'error.NETWORK': 'Could not reach the host.',
  'error.CANCELLED': 'Cancelled. The summary was not rewritten.',
  'error.unknown': 'Failed ({code}).',
}

/** Both dictionaries, in the shape `locale.register(ns, dicts)` takes. */
export const DICTIONARIES: { readonly zh: Record<LocaleKey, string>; readonly en: Record<LocaleKey, string> } = { zh, en }

/**
 * Base keys of the texts that count something; each has a `.one` and an `.other` entry. The action
 * table's counted texts (`armedLabel`, `undo`, `unsaved` in `shared/actions.ts`) are among them.
 */
export type CountedBase = ActionCountedBase | `notice.images.${'unreadable' | 'unsupported' | 'busy' | 'unavailable'}` | 'unsaved.apply' | 'panel.label' | 'panel.count' | 'panel.tokens' | 'panel.cutShort' | 'panel.cutShort.more' | 'armed.rewriteLabel' | 'armed.rewriteExcludeLabel' | 'armed.rewriteRecallLabel' | 'armed.rewriteOnwardLabel'

/** Every key the action table names, checked against the dictionaries: a key missing from `zh` (and so from `en`) fails the typecheck. */
type ActionKeysInDictionaries = [Exclude<ActionTextKey, ActionCountedBase> | `${ActionCountedBase}.${'one' | 'other'}`] extends [LocaleKey] ? true : never
/** Compiles only while {@link ActionKeysInDictionaries} holds. */
export const ACTION_KEYS_IN_DICTIONARIES: ActionKeysInDictionaries = true

/**
 * The dictionary key of a counted text for `count`: `.one` for exactly 1, `.other` for any other
 * number (0 included), the English cardinal rule (CLDR `one`/`other`), which also serves Chinese,
 * whose two forms are identical.
 * @param base - the counted text's base key.
 * @param count - the number the text shows, a non-negative integer.
 * @returns `<base>.one` or `<base>.other`.
 */
export function countedKey(base: CountedBase, count: number): `${CountedBase}.${'one' | 'other'}` {
  return count === 1 ? `${base}.one` : `${base}.other`
}

/**
 * Short localized message for an error code of the host route (`ErrorCode` in `shared/protocol.ts`)
 * or of the client (`NETWORK`: no reply or an unreadable one).
 * @param t - translate bound to {@link LOCALE_NS}.
 * @param code - the error code.
 * @returns the localized sentence; a code without its own sentence (including one this build does
 *   not know) reads as "Failed (CODE)".
 */
export function describeError(t: Translate, code: RecallErrorCode): string {
  const key = `error.${code}`
  return key !== 'error.unknown' && key in zh ? t(key) : t('error.unknown', { code })
}
