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
 * @module dsh-message-recall/client/locales
 */
import type { RecallErrorCode } from './api'
import type { Translate } from './rc8'

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
  'notice.images.one': '已撤回。{count} 张图片无法放回输入框：{names}',
  'notice.images.other': '已撤回。{count} 张图片无法放回输入框：{names}',
  'notice.dismiss': '关闭',
  'error.STALE_VIEW': '对话刚刚有了变化，请再试一次',
  'error.AGENT_BUSY': '智能体正在工作，请等它停下再试',
  'error.TARGET_NOT_FOUND': '这条消息已不在对话中',
  'error.NOT_A_USER_MESSAGE': '只能撤回你自己发送的消息',
  'error.NOT_DELETABLE': '这条消息不能删除',
  'error.SPAN_NOT_CONTIGUOUS': '这一步中间夹着其他内容，无法整体删除',
  'error.SESSION_NOT_LIVE': '主机上没有加载这个会话',
  'error.PERSIST_FAILED': '改动没能保存到磁盘',
  'error.FORBIDDEN': '主机拒绝了这个请求',
  'error.NETWORK': '连不上主机',
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
  'notice.images.one': 'Recalled. {count} image could not be put back in the composer: {names}',
  'notice.images.other': 'Recalled. {count} images could not be put back in the composer: {names}',
  'notice.dismiss': 'Dismiss',
  'error.STALE_VIEW': 'The conversation just changed. Try again.',
  'error.AGENT_BUSY': 'The agent is working. Try again when it stops.',
  'error.TARGET_NOT_FOUND': 'This message is no longer in the conversation.',
  'error.NOT_A_USER_MESSAGE': 'Only messages you sent can be recalled.',
  'error.NOT_DELETABLE': 'This message cannot be deleted.',
  'error.SPAN_NOT_CONTIGUOUS': 'Other content sits inside this step, so it cannot be removed as a whole.',
  'error.SESSION_NOT_LIVE': 'This session is not loaded on the host.',
  'error.PERSIST_FAILED': 'The change could not be saved to disk.',
  'error.FORBIDDEN': 'The host refused the request.',
  'error.NETWORK': 'Could not reach the host.',
  'error.unknown': 'Failed ({code}).',
}

/** Both dictionaries, in the shape `locale.register(ns, dicts)` takes. */
export const DICTIONARIES: { readonly zh: Record<LocaleKey, string>; readonly en: Record<LocaleKey, string> } = { zh, en }

/** Base keys of the texts that count something; each has a `.one` and an `.other` entry. */
export type CountedBase = 'armed.label' | 'notice.images'

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
