/**
 * The images of a recalled prompt, put back into the composer next to its text. The bytes of a
 * sent image stay readable through the session face's `readAttachment(id)` (the
 * `session.attachment` RPC authorises any attachment the session's events reference, removed ones
 * included); the composer takes browser files as draft images through the `conversation`
 * service's `createDraftImages(files)` and `InputActions.addImages(ids)`
 * (`dsh-client-ui-conversation`, `ConversationController` and `InputActions`). Sending them again
 * stores the same bytes, so the message keeps its attachment id.
 *
 * An image that cannot come back is named with the reason, never silently dropped.
 *
 * @module dsh-message-recall/client/recall/recall-images
 */
import { isRecord } from '../../shared/events'

/** One image block of a logged message (`{ type: 'image', attachment: { attachmentId, mediaType, name?, width?, height? } }`). */
export interface ImageRef {
  /** 0-based position among the message's images. */
  readonly index: number
  readonly attachmentId: string
  readonly mediaType: string
  /** The file name the person sent, or `''`. */
  readonly fileName: string
  /** What the notice calls it: the file name, else `#<n>` and its size in pixels when known. */
  readonly displayName: string
}

/** Why one image did not come back. */
export type LostReason =
  /** The host did not return its bytes (`readAttachment` failed or no session face was found). */
  | 'unreadable'
  /** Its media type is none the composer takes (png, jpeg, webp, gif). */
  | 'unsupported'
  /** The composer refused the images (it refuses while a send is being admitted). */
  | 'busy'
  /** This page's composer has no image input (no `conversation` service or no `addImages`). */
  | 'unavailable'

/** An image left behind, with its reason. */
export interface LostImage {
  readonly name: string
  readonly reason: LostReason
}

/** What {@link restoreImages} did. */
export interface ImagesOutcome {
  /** Images now in the composer, in message order. */
  readonly added: number
  /** Images left behind, in message order. */
  readonly lost: readonly LostImage[]
}

/** `SessionFace.readAttachment` (`dsh-client-runtime`, `ISession`), reduced: an RPC result with the bytes. */
export type AttachmentReader = (attachmentId: string) => Promise<
  | { readonly ok: true; readonly value: { readonly data: Uint8Array } }
  | { readonly ok: false; readonly error?: unknown }
>

/** A draft image the composer owns (`ComposerAttachment`, reduced). */
export interface DraftImage {
  readonly id: string
}

/** The `conversation` service's draft-image verbs (`ConversationController`), reduced. */
export interface DraftImages {
  /** @throws `UnsupportedImageMediaTypeError` when a file's type is not an accepted image type. */
  createDraftImages(files: readonly File[]): readonly DraftImage[]
  releaseDraftImages(attachments: readonly DraftImage[]): void
}

/** What {@link restoreImages} reaches; each part is `undefined` when the page lacks it. */
export interface ImageServices {
  readonly readAttachment: AttachmentReader | undefined
  readonly drafts: DraftImages | undefined
  /** `InputActions.addImages`: `false` when the composer refuses (busy admission phase). */
  readonly addImages: ((ids: readonly string[]) => boolean) | undefined
}

/** Where the page's image services are found at recall time (each `undefined` when the page lacks it). */
export interface ImageSource {
  /** The session face's `readAttachment` of `sessionId`. */
  reader(sessionId: string): AttachmentReader | undefined
  /** The `conversation` service's draft-image verbs. */
  drafts(): DraftImages | undefined
}

/** The media types `createDraftImages` accepts (`imageMediaType` in `dsh-client-ui-conversation`). */
export const COMPOSER_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif'])

const EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }

/**
 * The image blocks of a message's content, in order.
 * @param content - the message's content blocks as logged.
 * @returns one ref per image block; a block without an attachment id still counts (it cannot be read back).
 */
export function imageRefs(content: readonly unknown[]): ImageRef[] {
  const refs: ImageRef[] = []
  for (const block of content) {
    if (!isRecord(block) || block.type !== 'image') continue
    const attachment = isRecord(block.attachment) ? block.attachment : {}
    const index = refs.length
    const fileName = typeof attachment.name === 'string' ? attachment.name : ''
    const size = typeof attachment.width === 'number' && typeof attachment.height === 'number' ? ` ${attachment.width}×${attachment.height}` : ''
    refs.push({
      index,
      attachmentId: typeof attachment.attachmentId === 'string' ? attachment.attachmentId : '',
      mediaType: typeof attachment.mediaType === 'string' ? attachment.mediaType : '',
      fileName,
      displayName: fileName !== '' ? fileName : `#${index + 1}${size}`,
    })
  }
  return refs
}

/**
 * Read the images' bytes back from the host and add them to the composer as draft images.
 * @param refs - the message's images ({@link imageRefs}).
 * @param services - the session face's reader, the conversation service and the composer.
 * @returns how many came back and which did not, and why; never rejects.
 */
export async function restoreImages(refs: readonly ImageRef[], services: ImageServices): Promise<ImagesOutcome> {
  if (refs.length === 0) return { added: 0, lost: [] }
  const { readAttachment, drafts, addImages } = services
  if (drafts === undefined || addImages === undefined) return { added: 0, lost: refs.map((ref) => lose(ref, 'unavailable')) }
  const read = await Promise.all(refs.map((ref) => readFile(ref, readAttachment)))
  const lost = new Map<number, LostImage>()
  const files: File[] = []
  const order: ImageRef[] = []
  read.forEach((outcome, i) => {
    const ref = refs[i]!
    if (outcome instanceof File) {
      files.push(outcome)
      order.push(ref)
    } else lost.set(ref.index, lose(ref, outcome))
  })
  let added = 0
  if (files.length > 0) {
    let created: readonly DraftImage[] | null = null
    try {
      created = drafts.createDraftImages(files)
    } catch {
      // Types were checked above, so this is a composer that takes none of them.
      for (const ref of order) lost.set(ref.index, lose(ref, 'unavailable'))
    }
    if (created !== null) {
      if (addImages(created.map((image) => image.id))) added = created.length
      else {
        drafts.releaseDraftImages(created)
        for (const ref of order) lost.set(ref.index, lose(ref, 'busy'))
      }
    }
  }
  return { added, lost: refs.flatMap((ref) => lost.get(ref.index) ?? []) }
}

function lose(ref: ImageRef, reason: LostReason): LostImage {
  return { name: ref.displayName, reason }
}

async function readFile(ref: ImageRef, readAttachment: AttachmentReader | undefined): Promise<File | LostReason> {
  if (!COMPOSER_IMAGE_TYPES.has(ref.mediaType)) return 'unsupported'
  if (readAttachment === undefined || ref.attachmentId === '') return 'unreadable'
  try {
    const result = await readAttachment(ref.attachmentId)
    if (!result.ok) return 'unreadable'
    const name = ref.fileName !== '' ? ref.fileName : `image-${ref.index + 1}.${EXTENSIONS[ref.mediaType]}`
    return new File([new Uint8Array(result.value.data)], name, { type: ref.mediaType })
  } catch {
    return 'unreadable'
  }
}
