/**
 * The dictionaries: `zh` is the key source of truth, `en` carries exactly its keys and the same
 * placeholders, every route error code has a sentence, and the real rc.8 LocaleRuntime serves them.
 */
import './support/dom'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Context } from '@deepseek-ai/cordis'
import { describeError, en, LOCALE_NS, zh, DICTIONARIES } from '../../src/client/locales'
import { ERROR_CODES } from '../../src/shared/protocol'
import { clientLocale } from './support/rc8-client'

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('locales', () => {
  it('en has exactly the zh keys, with the same placeholders', () => {
    assert.deepEqual(Object.keys(en).sort(), Object.keys(zh).sort())
    for (const key of Object.keys(zh) as (keyof typeof zh)[]) assert.deepEqual(placeholders(en[key]), placeholders(zh[key]), key)
  })

  it('has a sentence for every refusal a person can meet, and falls back to the raw code', () => {
    const locale = new clientLocale.LocaleRuntime(new Context())
    const dispose = locale.register(LOCALE_NS, DICTIONARIES)
    const t = locale.bind(LOCALE_NS)
    for (const code of ['STALE_VIEW', 'AGENT_BUSY', 'TARGET_NOT_FOUND', 'NOT_A_USER_MESSAGE', 'NOT_DELETABLE', 'SPAN_NOT_CONTIGUOUS', 'SESSION_NOT_LIVE', 'PERSIST_FAILED', 'FORBIDDEN', 'NETWORK']) {
      assert.ok(`error.${code}` in zh, code)
    }
    locale.setLocale('en')
    assert.equal(describeError(t, 'INVALID_REQUEST'), 'Failed (INVALID_REQUEST).')
    assert.ok(ERROR_CODES.every((code) => describeError(t, code).length > 0))
    locale.setLocale('zh')
    assert.equal(describeError(t, 'STALE_VIEW'), '对话刚刚有了变化，请再试一次')
    assert.equal(t('armed.delete', { count: 3 }), '确认删除 3 条？')
    dispose()
    assert.equal(t('armed.delete', { count: 3 }), 'armed.delete')
  })
})
