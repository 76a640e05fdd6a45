/**
 * The image notice after a recall: the images of the recalled prompt that could not come back into
 * the composer, each with its reason, shown above the composer for `noticeMs` or until dismissed.
 * A store on {@link SnapshotStore} (immutable snapshots), no DOM and no React.
 *
 * @module dsh-message-recall/client/recall/image-notice
 */
import { SnapshotStore } from '../stores/snapshot-store'
import { BROWSER_TIMERS, type Timers } from '../stores/timers'
import type { LostImage } from './recall-images'

/** Shown after a recall whose message had images that could not come back into the composer. */
export interface RecallNotice {
  /** Increases per notice, so a repeated notice re-renders. */
  readonly id: number
  /** The images left behind, each with its reason, in message order. */
  readonly lost: readonly LostImage[]
}

/** Construction options of {@link ImageNotice}. */
export interface ImageNoticeOptions {
  /** How long the notice stays, ms (default 10000). */
  readonly noticeMs?: number
  readonly timers?: Timers
}

/** The image notice of one session; `null` while none is shown. */
export class ImageNotice extends SnapshotStore<RecallNotice | null> {
  private readonly timers: Timers
  private timer: unknown = undefined
  private nextId = 0
  private disposed = false

  constructor(private readonly options: ImageNoticeOptions = {}) {
    super(null)
    this.timers = options.timers ?? BROWSER_TIMERS
  }

  /**
   * Name the images of a recall that could not come back into the composer.
   * @param lost - the images left behind, with their reasons; nothing is shown for none.
   */
  show(lost: readonly LostImage[]): void {
    if (this.disposed || lost.length === 0) return
    this.timers.clearTimeout(this.timer)
    this.publish(Object.freeze({ id: ++this.nextId, lost }))
    this.timer = this.timers.setTimeout(() => this.dismiss(), this.options.noticeMs ?? 10_000)
  }

  /** Hide the notice. */
  dismiss(): void {
    if (this.disposed || this.state === null) return
    this.timers.clearTimeout(this.timer)
    this.publish(null)
  }

  /** Stop the timer and drop listeners. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.timers.clearTimeout(this.timer)
    this.dropListeners()
  }
}
