/**
 * A prompt refused because this plugin held its session for a write is sent again
 * (`src/client/wire/prompt-retry.ts`): the exact rc.8 refusal, the same request body each time,
 * everything else untouched.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { installPromptRetry, isHoldRefusal, promptRetryFetch, PROMPT_RETRY_DELAYS_MS, type PageFetch } from '../../src/client/wire/prompt-retry'

const ID = 'session-7d0c2a4e'
/** The web host's answer to `session.prompt` while the session is held (dsh-api-remotes `createApiRemoteAgentResolver`). */
const held = (rpcId: string) => ({
  type: 'server-response', rpcId,
  result: { ok: false, error: { code: 'internal', message: `resume failed for session "${ID}": Error: cannot prepare session "${ID}" while it is live`, details: {} } },
})
const accepted = (rpcId: string) => ({ type: 'server-response', rpcId, result: { ok: true, value: { messageId: 'm-1' } } })
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
const promptBody = JSON.stringify({ type: 'client-request', rpcId: 'rpc-1', method: 'session.prompt', payload: { sessionId: ID, mode: 'queue', content: [{ type: 'text', text: 'hello' }] } })

/** A page fetch answering from a list, recording each call. */
function scripted(answers: unknown[]): { fetch: PageFetch; calls: { url: string; body: unknown }[] } {
  const calls: { url: string; body: unknown }[] = []
  return {
    calls,
    fetch: async (input, init) => {
      calls.push({ url: String(input), body: init?.body })
      return json(answers.shift())
    },
  }
}

describe('prompt retry', () => {
  it('knows the refusal of a held session and nothing else', () => {
    assert.equal(isHoldRefusal(held('r')), true)
    assert.equal(isHoldRefusal(accepted('r')), false)
    assert.equal(isHoldRefusal({ result: { ok: false, error: { code: 'internal', message: 'resume failed for session "x": Error: disk full' } } }), false)
    assert.equal(isHoldRefusal({ result: { ok: false, error: { code: 'agent-busy', message: `cannot prepare session "${ID}" while it is live` } } }), false)
    assert.equal(isHoldRefusal(null), false)
  })

  it('sends a held prompt again, unchanged, until it is taken', async () => {
    const page = scripted([held('rpc-1'), held('rpc-1'), accepted('rpc-1')])
    const waits: number[] = []
    const fetch = promptRetryFetch(page.fetch, async (ms) => { waits.push(ms) })
    const response = await fetch('http://127.0.0.1:3080/api/session.prompt', { method: 'POST', headers: { 'content-type': 'application/json' }, body: promptBody })
    assert.deepEqual(await response.json(), accepted('rpc-1'))
    assert.equal(page.calls.length, 3)
    assert.deepEqual(page.calls.map((c) => c.body), [promptBody, promptBody, promptBody])
    assert.deepEqual(waits, [25, 50])
  })

  it('gives the page the refusal after the last attempt', async () => {
    const page = scripted(Array.from({ length: 10 }, () => held('rpc-1')))
    const fetch = promptRetryFetch(page.fetch, async () => {})
    const response = await fetch(new URL('http://127.0.0.1:3080/api/session.prompt'), { method: 'POST', body: promptBody })
    assert.deepEqual(await response.json(), held('rpc-1'))
    assert.equal(page.calls.length, PROMPT_RETRY_DELAYS_MS.length + 1)
  })

  it('leaves every other request and answer alone', async () => {
    const other = { result: { ok: false, error: { code: 'invalid-time-zone', message: 'x' } } }
    const page = scripted([held('h'), other, held('s')])
    const fetch = promptRetryFetch(page.fetch, async () => { throw new Error('no wait expected') })
    assert.deepEqual(await (await fetch('http://127.0.0.1:3080/api/session.history', { method: 'POST', body: '{}' })).json(), held('h'))
    assert.deepEqual(await (await fetch('http://127.0.0.1:3080/api/session.prompt', { method: 'POST', body: promptBody })).json(), other)
    assert.deepEqual(await (await fetch('http://127.0.0.1:3080/api/session.steer', { method: 'POST', body: '{}' })).json(), held('s'))
    assert.equal(page.calls.length, 3)
  })

  it('installs on the page and puts the page\'s fetch back', () => {
    const own: PageFetch = async () => json(null)
    const page = { fetch: own, setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms) }
    const dispose = installPromptRetry(page)
    assert.notEqual(page.fetch, own)
    dispose()
    assert.equal(page.fetch, own)
  })
})
