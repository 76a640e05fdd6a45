/**
 * Reading the chat-completions requests the real DeepSeek provider sent to the mock model
 * (`MockLlmServer.requests[i].body`, an OpenAI-style `{ model, messages, tools?, … }` body as
 * serialized by `dsh-llm-deepseek@0.1.0-rc.8` `serializeMessages`).
 *
 * @module test/support/wire
 */
import type { MockLlmServer } from '@deepseek-ai/dsh-llm-mock-server'

/** One wire message: `role` plus `content` (a string in the rc.8 text path) and tool fields. */
export interface WireMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool'
  readonly content?: unknown
  readonly tool_calls?: readonly { readonly id: string; readonly function: { readonly name: string; readonly arguments: string } }[]
  readonly tool_call_id?: string
}

/**
 * The `messages` of the `index`-th captured request (negative counts from the end; default the last).
 * @throws `Error('wire: no request at index N (M captured)')` when there is none.
 */
export function wireMessages(mock: MockLlmServer, index = -1): WireMessage[] {
  const at = index < 0 ? mock.requests.length + index : index
  const record = mock.requests[at]
  if (!record) throw new Error(`wire: no request at index ${index} (${mock.requests.length} captured)`)
  return (record.body as { messages: WireMessage[] }).messages
}

/** The whole wire request as one string, for "this text is (not) on the wire" checks. */
export function wireText(messages: readonly WireMessage[]): string {
  return JSON.stringify(messages)
}

/**
 * Pairing problems of a wire conversation, empty when it is well formed: every `tool` message
 * answers a tool call of the nearest preceding assistant message (with only tool messages
 * between), and every assistant tool call is answered before the next non-tool message.
 * @returns human-readable problems, e.g. `tool message 7 answers unknown call "c1"`.
 */
export function toolPairingProblems(messages: readonly WireMessage[]): string[] {
  const problems: string[] = []
  let open = new Set<string>()
  let inToolRun = false
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      if (!inToolRun || !m.tool_call_id || !open.has(m.tool_call_id)) problems.push(`tool message ${i} answers unknown call ${JSON.stringify(m.tool_call_id)}`)
      else open.delete(m.tool_call_id)
      return
    }
    for (const id of open) problems.push(`tool call ${JSON.stringify(id)} is not answered before message ${i}`)
    open = new Set((m.role === 'assistant' ? m.tool_calls ?? [] : []).map((c) => c.id))
    inToolRun = m.role === 'assistant' && open.size > 0
  })
  for (const id of open) problems.push(`tool call ${JSON.stringify(id)} is not answered at the end`)
  return problems
}
