/**
 * The hidden-row sheet (`src/client/rows/hidden-row-sheet.ts`) in happy-dom: its exact CSS text,
 * the scope token on the pane element, a row element that no pass has marked hidden by the sheet
 * alone, and what dispose leaves behind.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Window } from 'happy-dom'
import { HiddenRowSheet, hiddenRowRules, SHEET_ATTR } from '../../src/client/rows/hidden-row-sheet'
import { cssString } from '../../src/client/text/css-string'

describe('hidden-row sheet', () => {
  it('writes one rule listing every key under the scope token, sorted, with CSS string escapes', () => {
    assert.equal(cssString('13:input-message9ae9'), '"13:input-message9ae9"')
    assert.equal(cssString('a"b\\c\nd'), '"a\\"b\\\\c\\a d"')
    assert.equal(hiddenRowRules('s7', new Set(['9:tool-callc1', '13:input-messagem1'])),
      '[data-message-recall-scope="s7"] [data-chat-flow]>[data-chat-flow-key="13:input-messagem1"],\n'
      + '[data-message-recall-scope="s7"] [data-chat-flow]>[data-chat-flow-key="9:tool-callc1"]{display:none!important}\n')
    assert.equal(hiddenRowRules('s7', new Set()), '')
  })

  it('hides a new row element of a hidden key by CSS alone, only inside its own scope, and takes everything back on dispose', async () => {
    const window = new Window()
    const document = window.document
    document.body.innerHTML = '<div id="pane"><div data-chat-flow=""></div></div><div id="other"><div data-chat-flow=""></div></div>'
    const pane = document.getElementById('pane')!
    const other = document.getElementById('other')!
    const sheet = new HiddenRowSheet()
    sheet.setScope(pane as unknown as Element)
    sheet.update(new Set(['13:input-messagem1']))
    const token = pane.getAttribute(SHEET_ATTR.scope)
    assert.match(token ?? '', /^s\d+$/)
    assert.equal(document.head.querySelectorAll(`style[${SHEET_ATTR.style}]`).length, 1)

    const addRow = (host: typeof pane, key: string) => {
      const row = document.createElement('div')
      row.setAttribute('data-chat-flow-key', key)
      host.querySelector('[data-chat-flow]')!.appendChild(row)
      return row
    }
    const fresh = addRow(pane, '13:input-messagem1')
    const kept = addRow(pane, '13:input-messagem2')
    const elsewhere = addRow(other, '13:input-messagem1')
    const display = (el: typeof fresh) => window.getComputedStyle(el).display
    assert.deepEqual([display(fresh), display(kept), display(elsewhere)], ['none', 'block', 'block'])

    sheet.update(new Set())
    assert.equal(display(fresh), 'block', 'a restored row shows again')
    sheet.update(new Set(['13:input-messagem2']))
    sheet.dispose()
    assert.equal(pane.hasAttribute(SHEET_ATTR.scope), false)
    assert.equal(document.head.querySelectorAll(`style[${SHEET_ATTR.style}]`).length, 0)
    assert.equal(display(kept), 'block')
    await window.happyDOM.close()
  })

  it('leaves a scope token alone that another sheet put there later', async () => {
    const window = new Window()
    const pane = window.document.createElement('div')
    window.document.body.appendChild(pane)
    const first = new HiddenRowSheet()
    const second = new HiddenRowSheet()
    first.setScope(pane as unknown as Element)
    second.setScope(pane as unknown as Element)
    const token = pane.getAttribute(SHEET_ATTR.scope)
    first.dispose()
    assert.equal(pane.getAttribute(SHEET_ATTR.scope), token, 'the later sheet keeps its token')
    second.dispose()
    assert.equal(pane.hasAttribute(SHEET_ATTR.scope), false)
    await window.happyDOM.close()
  })
})
