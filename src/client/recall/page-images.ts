/**
 * The page's image services for Recall, looked up when a recall needs them (never injected, so
 * a page without them still boots): the session face's `readAttachment` through
 * `ctx.sessions.binding(id).session` (`dsh-client-runtime`, `SessionRuntime.binding`) and the
 * `conversation` service's draft images (`dsh-client-ui-conversation`, `ConversationController`).
 *
 * @module dsh-message-recall/client/recall/page-images
 */
import { isRecord } from '../../shared/events'
import type { ConversationService, SessionsService } from '../wire/rc8'
import type { AttachmentReader, ImageSource } from './recall-images'

/**
 * Build the image source over a service lookup.
 * @param get - a service by name, `undefined` when absent (cordis `Context.get`).
 * @returns readers that answer `undefined` where the page lacks the service or verb.
 */
export function pageImageSource(get: (name: string) => unknown): ImageSource {
  return {
    reader(sessionId: string): AttachmentReader | undefined {
      const sessions = get('sessions') as SessionsService | undefined
      const face = typeof sessions?.binding === 'function' ? sessions.binding(sessionId)?.session : undefined
      if (face === undefined || typeof face.readAttachment !== 'function') return undefined
      return async (attachmentId) => {
        const result = await face.readAttachment(attachmentId)
        if (isRecord(result) && result.ok === true && isRecord(result.value) && result.value.data instanceof Uint8Array) {
          return { ok: true, value: { data: result.value.data } }
        }
        return { ok: false, error: isRecord(result) ? result.error : result }
      }
    },
    drafts(): ConversationService | undefined {
      const conversation = get('conversation') as Partial<ConversationService> | undefined
      return typeof conversation?.createDraftImages === 'function' && typeof conversation.releaseDraftImages === 'function'
        ? conversation as ConversationService
        : undefined
    },
  }
}
