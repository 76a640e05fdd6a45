/**
 * The export button's strings, registered with the DSH locale service under their own namespace
 * {@link EXPORT_LOCALE_NS}. `zh` is the source of truth for the key set; `en` is typed against it.
 *
 * @module dsh-message-recall/client/export/export-locales
 */
import type { ExportErrorCode } from '../../shared/export-protocol'

/** Locale namespace of the export button. */
export const EXPORT_LOCALE_NS = 'dsh-message-recall.export'

/** Chinese dictionary; its keys are the export button's key set. */
export const exportZh = {
  'button': '日志（不含已移除）',
  'button.label': '会话日志（不含已移除消息）：下载 ZIP，已移除消息的内容不在其中（子代理会话和图片一并打包）',
  'preparing': '正在准备下载…',
  'started': '已开始下载 {file}',
  'error.AGENT_BUSY': '智能体正在工作，停下后再导出。',
  'error.SESSION_NOT_FOUND': '找不到这个会话的日志。',
  'error.EXPORT_UNAVAILABLE': '这个主机不能导出会话日志。',
  'error.other': '导出失败（{code}）。',
}

/** The key set. */
export type ExportKey = keyof typeof exportZh

/** English dictionary. */
export const exportEn: Record<ExportKey, string> = {
  'button': 'Log without removed',
  'button.label': 'Session log without removed messages: download a ZIP without the content of removed messages (subagent sessions and images included)',
  'preparing': 'Preparing the download…',
  'started': 'Download started: {file}',
  'error.AGENT_BUSY': 'The agent is working. Export when it stops.',
  'error.SESSION_NOT_FOUND': 'This session has no stored log.',
  'error.EXPORT_UNAVAILABLE': 'This host cannot export session logs.',
  'error.other': 'Export failed ({code}).',
}

/** Both dictionaries, as `ctx.locale.register` takes them. */
export const EXPORT_DICTIONARIES = { zh: exportZh, en: exportEn }

/**
 * The key of a refusal's sentence.
 * @param code - the error code the host answered, or another word for a failure without one.
 * @returns the code's own key, or `error.other` (shown with the code).
 */
export function exportErrorKey(code: ExportErrorCode | string): ExportKey {
  return code === 'AGENT_BUSY' || code === 'SESSION_NOT_FOUND' || code === 'EXPORT_UNAVAILABLE' ? `error.${code}` : 'error.other'
}
