/**
 * The UI language the host reads from the user-settings document (`src/host/ui-language.ts`).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { uiLanguageOf } from '../../src/host/ui-language'

describe('uiLanguageOf', () => {
  it('answers the language the person chose in the settings', () => {
    assert.equal(uiLanguageOf({ document: { locale: { preference: 'zh' } } }), 'zh')
    assert.equal(uiLanguageOf({ document: { locale: { preference: 'en' } } }), 'en')
  })

  it('answers English without a choice, without the service, or for a language rc.8 does not ship', () => {
    assert.equal(uiLanguageOf(undefined), 'en')
    assert.equal(uiLanguageOf({ document: {} }), 'en')
    assert.equal(uiLanguageOf({ document: { locale: {} } }), 'en')
    assert.equal(uiLanguageOf({ document: { locale: { preference: 'fr' } } }), 'en')
    assert.equal(uiLanguageOf({ document: { locale: 'zh' } }), 'en')
    assert.equal(uiLanguageOf({}), 'en')
  })
})
