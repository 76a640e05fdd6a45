/**
 * One store per session, shared by every entry of this plugin that shows the session: the composer
 * overlay and the session header's Removed and Edit buttons are separate seats, so a request started
 * in one shows in the others. Each store is made on first use and disposed with the plugin.
 *
 * @module dsh-message-recall/client/stores/session-stores
 */

/** Per-session stores of one kind. */
export class SessionStores<T extends { dispose(): void }> {
  private readonly bySession = new Map<string, T>()

  /** @param make - builds the store of a session (called once per session id). */
  constructor(private readonly make: (sessionId: string) => T) {}

  /**
   * @param sessionId - the session.
   * @returns its store, made on first use.
   */
  get(sessionId: string): T {
    let store = this.bySession.get(sessionId)
    if (store === undefined) this.bySession.set(sessionId, store = this.make(sessionId))
    return store
  }

  /** Dispose every store (plugin unload). */
  dispose(): void {
    for (const store of this.bySession.values()) store.dispose()
    this.bySession.clear()
  }
}
