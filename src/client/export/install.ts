/**
 * Registers the export button: its dictionaries and its entry in the session header's
 * `conversation.session.header.utilities` list (beside DSH's Session log and the plugin's Removed
 * and Edit buttons), both tied to the plugin's fiber.
 *
 * @module dsh-message-recall/client/export/install
 */
import type { LocaleService, SlotService } from '../wire/rc8'
import { ExportButton, type ExportKit } from './ExportButton'
import type { ExportFetch } from './download'
import { EXPORT_DICTIONARIES, EXPORT_LOCALE_NS } from './export-locales'

/** Id of the export button entry. */
export const EXPORT_ENTRY_ID = 'dsh-message-recall-export'

/**
 * Register the export button.
 * @param ctx - the client context's `effect`, `slots` and `locale`.
 * @param fetchImpl - the page's `fetch`.
 * @param path - the host half's route path.
 */
export function installExportButton(ctx: { effect(execute: () => () => void, label?: string): unknown; readonly slots: SlotService; readonly locale: LocaleService }, fetchImpl: ExportFetch, path: string): void {
  ctx.effect(() => ctx.locale.register(EXPORT_LOCALE_NS, EXPORT_DICTIONARIES), 'dsh-message-recall: export dictionaries')
  const exportKit: ExportKit = { t: ctx.locale.bind(EXPORT_LOCALE_NS), fetch: fetchImpl, path }
  ctx.slots.inject('conversation.session.header.utilities', () => ctx.slots.register({
    name: 'conversation.session.header.utilities',
    id: EXPORT_ENTRY_ID,
    order: 110,
    locale: EXPORT_LOCALE_NS,
    inject: () => ({ exportKit }),
  }, ExportButton))
}
