/**
 * Checks on what the model received, over the mock model's captured requests.
 *
 * @module test/e2e/wire-checks
 */
import assert from 'node:assert/strict'
import type { MockModel, MockRequest } from '../../tools/mock-model'
import { toolPairingProblems, wireText, type WireMessage } from '../support/wire'

/** The messages of a captured request. */
export function messagesOf(request: MockRequest): WireMessage[] {
  return request.body.messages as unknown as WireMessage[]
}

/** The last turn request the mock model received. @throws when there is none */
export function lastRequest(model: MockModel): MockRequest {
  const r = model.requests.at(-1)
  if (!r) throw new Error('the mock model received no turn request')
  return r
}

/**
 * Assert the request is well formed (every tool message answers a preceding tool call, every
 * tool call is answered), carries each of `present` and none of `absent`.
 */
export function assertWire(request: MockRequest, expectation: { present?: readonly string[]; absent?: readonly string[] }): void {
  const messages = messagesOf(request)
  assert.deepEqual(toolPairingProblems(messages), [], `request #${request.index} pairs every tool call with its result`)
  const text = wireText(messages)
  for (const s of expectation.present ?? []) assert.ok(text.includes(s), `request #${request.index} carries ${JSON.stringify(s)}`)
  for (const s of expectation.absent ?? []) assert.ok(!text.includes(s), `request #${request.index} has no trace of ${JSON.stringify(s)}`)
}
