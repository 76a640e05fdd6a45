/**
 * The language of the person's DSH UI as the host can know it. rc.8 keeps an explicit choice
 * (the Language row of the settings) in the host's user-settings document, namespace `locale`,
 * field `preference`, `'zh'` or `'en'` (`dsh-client-locale` `LOCALE_SETTINGS_NAMESPACE`,
 * `LOCALE_PREFERENCE_FIELD`), which the host's `settings` service (`dsh-settings`
 * `SettingsProvider.document`) holds as published. Without an explicit choice the UI follows the
 * browser's language, which never reaches the host; the host then answers English, the UI's own
 * fallback (`dsh-client-locale` `FALLBACK_LOCALE`).
 *
 * @module dsh-message-recall/host/ui-language
 */
import type { CopyTitleLanguage } from './copy-title'

/** The part of the `settings` service read here (structural). */
export interface SettingsDocumentReader {
  /** The latest published raw user-settings document. */
  readonly document?: unknown
}

/**
 * The UI language the host can read.
 * @param settings - `ctx.get('settings')`, or `undefined` when the service is not loaded.
 * @returns `'zh'` or `'en'` when the person chose one; `'en'` otherwise (no choice stored, no
 *   settings service, or a value rc.8 does not ship).
 */
export function uiLanguageOf(settings: SettingsDocumentReader | undefined): CopyTitleLanguage {
  const document = settings?.document
  const locale = typeof document === 'object' && document !== null ? (document as Record<string, unknown>).locale : undefined
  const preference = typeof locale === 'object' && locale !== null ? (locale as Record<string, unknown>).preference : undefined
  return preference === 'zh' ? 'zh' : 'en'
}
