/**
 * The headless entry that hides DSH's To-dos strip while it shows a list only a removed model step
 * wrote ({@link staleTodoList}). It sits in `conversation.session.header.utilities`, reads the
 * session's whole history when the session has a to-do list, a tombstone of this plugin and no
 * running turn, and switches the page's {@link TodoStripHider}. Renders nothing.
 *
 * rc.8 shape: the strip is `dsh-client-ui-conversation` `TodoPanel`, `[data-testid="todo-panel"]`,
 * showing the `todos` projection.
 *
 * @module dsh-message-recall/client/side-state/TodoStrip
 */
import { useEffect } from 'react'
import { isTombstoneEvent } from '../../shared/tombstone'
import type { FetchLike } from '../wire/api'
import { readWholeHistory } from '../wire/session-history'
import type { SessionSnapshot, SnapshotSelectorHook } from '../wire/rc8'
import { selectReplacements } from '../wire/replacement-view'
import { staleTodoList } from './todo-list'
import { errorText } from '../../shared/error-text'

/** DSH's To-dos strip. */
export const TODO_PANEL_SELECTOR = '[data-testid="todo-panel"]'
/** Attribute of the hiding style sheet. */
export const TODO_STRIP_STYLE = 'data-message-recall-todos'

/** The page's one switch for the To-dos strip. */
export class TodoStripHider {
  private readonly style: HTMLStyleElement
  /** @param doc - the page's document. */
  constructor(doc: Document) {
    this.style = doc.createElement('style')
    this.style.setAttribute(TODO_STRIP_STYLE, '')
    doc.head.appendChild(this.style)
  }
  /**
   * Hide or show the strip.
   * @param hidden - true while the strip's list came only from removed steps.
   */
  set(hidden: boolean): void {
    const text = hidden ? `${TODO_PANEL_SELECTOR} { display: none !important; }` : ''
    if (this.style.textContent !== text) this.style.textContent = text
  }
  /** Remove the style sheet. */
  dispose(): void {
    this.style.remove()
  }
}

/** What the plugin injects into the entry. */
export interface TodoStripKit {
  readonly hider: TodoStripHider
  readonly fetch: FetchLike
}

/** Props of the entry: the seat's standard props plus the kit. */
export interface TodoStripProps {
  readonly sessionId: string
  readonly useSession: SnapshotSelectorHook<SessionSnapshot>
  /** The seat's projection hook (`useProjection('todos')`); absent in a host without projections. */
  readonly useProjection?: (key: string) => unknown
  readonly todoKit: TodoStripKit
}

const selectRunning = (s: SessionSnapshot): boolean => s.running
const noProjection = (): unknown => undefined

/**
 * The entry.
 * @param props - see {@link TodoStripProps}.
 * @returns `null`.
 */
export function TodoStrip({ sessionId, useSession, useProjection = noProjection, todoKit: kit }: TodoStripProps): null {
  const replacements = useSession(selectReplacements)
  const running = useSession(selectRunning)
  const todos = useProjection('todos')
  useEffect(() => {
    if (running || !Array.isArray(todos) || todos.length === 0 || !replacements.some(isTombstoneEvent)) {
      kit.hider.set(false)
      return undefined
    }
    let current = true
    readWholeHistory(kit.fetch, sessionId).then(
      (events) => { if (current) kit.hider.set(staleTodoList(events)) },
      (error: unknown) => console.warn(`dsh-message-recall: the To-dos strip of session "${sessionId}" was not checked: ${errorText(error)}`),
    )
    return () => { current = false }
  }, [sessionId, replacements, running, todos, kit])
  useEffect(() => () => kit.hider.set(false), [kit])
  return null
}
