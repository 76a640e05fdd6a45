/**
 * The dictionaries: `zh` is the key source of truth, `en` carries exactly its keys and the same
 * placeholders, every route error code has a sentence, and the real rc.8 LocaleRuntime serves them.
 */
import './support/dom'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Context } from '@deepseek-ai/cordis'
import { countedKey, describeError, en, LOCALE_NS, zh, DICTIONARIES } from '../../src/client/text/locales'
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
    for (const code of ['STALE_VIEW', 'AGENT_BUSY', 'TARGET_NOT_FOUND', 'NOT_A_USER_MESSAGE', 'NOT_DELETABLE', 'SPAN_NOT_CONTIGUOUS', 'SESSION_NOT_LIVE', 'HOME_IN_USE', 'PERSIST_FAILED', 'FORBIDDEN', 'NETWORK']) {
      assert.ok(`error.${code}` in zh, code)
    }
    locale.setLocale('en')
    assert.equal(describeError(t, 'INVALID_REQUEST'), 'Failed (INVALID_REQUEST).')
    assert.equal(describeError(t, 'HOME_IN_USE'), 'Another host is using this DSH home; changes cannot be made here.')
    assert.ok(ERROR_CODES.every((code) => describeError(t, code).length > 0))
    locale.setLocale('zh')
    assert.equal(describeError(t, 'STALE_VIEW'), '对话刚刚有了变化，请再试一次')
    assert.equal(describeError(t, 'HOME_IN_USE'), '另一个主机正在使用这个 DSH 主目录，这里不能修改会话')
    assert.equal(t('armed.delete', { count: 3 }), '确认删除 3 条？')
    dispose()
    assert.equal(t('armed.delete', { count: 3 }), 'armed.delete')
  })

  it('counted texts agree with their number: one for exactly 1, other for 0 and many, in both languages', () => {
    const locale = new clientLocale.LocaleRuntime(new Context())
    const dispose = locale.register(LOCALE_NS, DICTIONARIES)
    const t = locale.bind(LOCALE_NS)
    const label = (count: number) => t(countedKey('armed.label', count), { count })
    const images = (count: number) => t(countedKey('notice.images.unreadable', count), { count, names: 'a.png' })
    locale.setLocale('en')
    assert.equal(label(1), 'Click again to delete 1 message')
    assert.equal(label(0), 'Click again to delete 0 messages')
    assert.equal(label(3), 'Click again to delete 3 messages')
    assert.equal(images(1), 'Recalled. 1 image could not be read back from the host, so it is not in the composer: a.png')
    assert.equal(images(2), 'Recalled. 2 images could not be read back from the host, so they are not in the composer: a.png')
    locale.setLocale('zh')
    assert.equal(label(1), '再点一次，删除 1 条消息')
    assert.equal(label(3), '再点一次，删除 3 条消息')
    assert.equal(images(2), '已撤回。2 张图片无法从主机读回，没有放回输入框：a.png')
    for (const base of ['armed.label', 'notice.images.unreadable', 'notice.images.unsupported', 'notice.images.busy', 'notice.images.unavailable', 'unsaved.delete'] as const) {
      assert.ok(`${base}.one` in zh && `${base}.other` in zh && !(base in zh), base)
    }
    dispose()
  })
})
