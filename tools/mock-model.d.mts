/** Types of tools/mock-model.mjs for the TypeScript end-to-end suite. */

/** One scripted model call. See `normaliseStep` in mock-model.mjs. */
export type MockStep =
  | string
  | { text: string }
  | { text?: string; toolCalls: Array<{ name: string; arguments?: unknown; id?: string }> }
  | { text?: string; toolCall: { name: string; arguments?: unknown; id?: string } }
  | { slow: string; chunkDelayMs?: number; chunkSize?: number }
  | { behavior: string; options?: Record<string, unknown> }

/** A chat-completions request the mock model answered. `body` is the exact wire request. */
export interface MockRequest {
  index: number
  kind: 'turn' | 'title'
  step: MockStep
  body: {
    model?: string
    messages: Array<{ role: string; content?: unknown; tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>; tool_call_id?: string }>
    tools?: Array<{ type: string; function: { name: string } }>
    [key: string]: unknown
  }
  time: number
  outcome: string | undefined
  callIds?: string[]
}

export interface MockModel {
  /** http://127.0.0.1:<port> */
  origin: string
  /** origin + /v1, for DEEPSEEK_BASE_URL */
  baseURL: string
  port: number
  apiKey: string
  /** Turn requests, in arrival order (live array). */
  requests: MockRequest[]
  /** Session-title requests (live array). */
  titleRequests: MockRequest[]
  /** Replace the queue of steps for the next turn requests. */
  script(steps: MockStep[]): void
  /** Steps not consumed yet. */
  pending(): number
  close(): Promise<void>
}

export const DEFAULT_ANSWER: string
export const DEFAULT_TITLE: string
export const MOCK_API_KEY: string
export function normaliseStep(step: MockStep): unknown
export function startMockModel(options?: {
  host?: string
  port?: number
  apiKey?: string
  defaultAnswer?: string
  title?: string
  onRequest?: (record: MockRequest) => void
}): Promise<MockModel>
