/**
 * Plugin configuration: `resolveConfig` defaults and refusals, and the plugin composed into a
 * real cordis Context the way the Loader composes a row (schema first, then `apply`), where a
 * stale or misspelled key fails the load.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Context, type Plugin } from '@deepseek-ai/cordis'
import { AgentRegistry } from '@deepseek-ai/dsh-agent'
import { WebServer } from '@deepseek-ai/dsh-host-webserver'
import { SessionStore } from '@deepseek-ai/dsh-session'
import * as recall from '../../src/host/index'
import { Config, DEFAULTS, resolveConfig } from '../../src/host/config'

describe('resolveConfig', () => {
  it('fills the frozen defaults', () => {
    const resolved = resolveConfig(undefined)
    assert.deepEqual(resolved, { path: '/dsh-message-recall', maxBodyBytes: 65536, tombstoneText: '', trustedHosts: ['localhost', '127.0.0.1', '[::1]'] })
    assert.ok(Object.isFrozen(resolved) && Object.isFrozen(resolved.trustedHosts))
    assert.ok(Object.isFrozen(DEFAULTS) && Object.isFrozen(DEFAULTS.trustedHosts))
    assert.deepEqual(resolveConfig(Config({})), resolved, 'the schema defaults are the same values')
  })

  it('keeps given values and lower-cases trusted hosts', () => {
    assert.deepEqual(resolveConfig({ path: '/recall', maxBodyBytes: 1024, tombstoneText: '(removed)', trustedHosts: ['Dev.Example:8080'] }), {
      path: '/recall', maxBodyBytes: 1024, tombstoneText: '(removed)', trustedHosts: ['dev.example:8080'],
    })
  })

  const bad: [config: unknown, message: string][] = [
    [{ maxChars: 10 }, 'MessageRecallConfig: unknown key "maxChars" (allowed: path, maxBodyBytes, tombstoneText, trustedHosts)'],
    [{ path: 'dsh-message-recall' }, 'MessageRecallConfig: path ("dsh-message-recall") must be an absolute pathname without trailing slash, query or fragment'],
    [{ path: '/recall/' }, 'MessageRecallConfig: path ("/recall/") must be an absolute pathname without trailing slash, query or fragment'],
    [{ path: '/recall?x=1' }, 'MessageRecallConfig: path ("/recall?x=1") must be an absolute pathname without trailing slash, query or fragment'],
    [{ maxBodyBytes: 0 }, 'MessageRecallConfig: maxBodyBytes (0) must be a positive integer'],
    [{ maxBodyBytes: 1.5 }, 'MessageRecallConfig: maxBodyBytes (1.5) must be a positive integer'],
    [{ tombstoneText: 7 }, 'MessageRecallConfig: tombstoneText (7) must be a string'],
    [{ trustedHosts: [] }, 'MessageRecallConfig: trustedHosts ([]) must be a non-empty list of host names'],
    [{ trustedHosts: ['http://localhost'] }, 'MessageRecallConfig: trustedHosts entry "http://localhost" is not a host name or host:port authority'],
    [[], 'MessageRecallConfig: expected an object, got []'],
  ]
  for (const [config, message] of bad) {
    it(`refuses ${JSON.stringify(config)}`, () => {
      assert.throws(() => resolveConfig(config), { message })
    })
  }
})

describe('plugin composition', () => {
  async function compose(): Promise<Context> {
    const ctx = new Context()
    await Promise.all([ctx.plugin(SessionStore), ctx.plugin(AgentRegistry), ctx.plugin(WebServer, { host: '127.0.0.1', port: 0 })])
    return ctx
  }

  it('loads with an empty config and serves the default path', async () => {
    const ctx = await compose()
    try {
      await ctx.plugin(recall as Plugin, {})
      const reply = await fetch(`http://127.0.0.1:${ctx.webServer.port}/dsh-message-recall`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"sessionId":"s","action":"inspect"}' })
      assert.equal(reply.status, 409)
      assert.deepEqual(await reply.json(), { ok: false, error: { code: 'SESSION_NOT_LIVE', message: 'message-recall: no session "s" (neither open in this host nor stored)' } })
    } finally {
      await ctx.fiber.dispose()
    }
  })

  it('fails the load on a stale key, and on a value the schema rejects', async () => {
    const ctx = await compose()
    try {
      await assert.rejects(async () => { await ctx.plugin(recall as Plugin, { maxChars: 1 }) }, /unknown key "maxChars"/)
      await assert.rejects(async () => { await ctx.plugin(recall as Plugin, { maxBodyBytes: -1 }) }, /maxBodyBytes expected number >= 1 but got -1/)
      const reply = await fetch(`http://127.0.0.1:${ctx.webServer.port}/dsh-message-recall`, { method: 'POST' })
      assert.equal(reply.status, 404, 'no route was registered')
    } finally {
      await ctx.fiber.dispose()
    }
  })

  it('fails the load when the path is already taken', async () => {
    const ctx = await compose()
    try {
      await ctx.plugin(recall as Plugin, {})
      await assert.rejects(async () => { await ctx.plugin(recall as Plugin, {}) }, /duplicate exact route "\/dsh-message-recall"/)
    } finally {
      await ctx.fiber.dispose()
    }
  })
})
