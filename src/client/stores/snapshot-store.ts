/**
 * The store shape React's `useSyncExternalStore` reads: a snapshot that stays the same object
 * until it changes, and a subscription called after every change. No DOM, no React.
 *
 * @module dsh-message-recall/client/stores/snapshot-store
 */

/** A snapshot store; subclasses publish new snapshots. */
export class SnapshotStore<S> {
  private readonly listeners = new Set<() => void>()

  /** @param state - the first snapshot. */
  constructor(protected state: S) {}

  /** @returns the current snapshot (stable until the next change). */
  getSnapshot = (): S => this.state

  /**
   * @param listener - called after every change.
   * @returns unsubscribe.
   */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Replace the snapshot and notify every listener.
   * @param state - the new snapshot.
   */
  protected publish(state: S): void {
    this.state = state
    for (const listener of [...this.listeners]) listener()
  }

  /** Forget every listener (on dispose). */
  protected dropListeners(): void {
    this.listeners.clear()
  }
}
