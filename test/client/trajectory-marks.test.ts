/**
 * The Trajectory marks in a real DOM (happy-dom): which rows a log's tombstones mark, the style
 * sheet that masks them, and the decorator's pass over rows and the inspector, laid out with the
 * rc.8 Trajectory tab's markers (`data-trajectory-row-key`, `data-selected`, the
 * `aside[aria-label="Event details"]` inspector).
 */
import './support/dom'
import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { settle } from './support/dom'
import type { LogEvent } from '../../src/shared/events'
import { tombstoneSource } from '../../src/shared/tombstone'
import type { TombstoneAction } from '../../src/shared/actions'
import { en, zh } from '../../src/client/text/locales'
import { trajectoryEn, trajectoryZh } from '../../src/client/trajectory/trajectory-locales'
import { markTexts } from '../../src/client/trajectory/TrajectoryMarks'
import { markTime, trajectoryMarks } from '../../src/client/trajectory/trajectory-marks'
import { INSPECTOR_MASKED, INSPECTOR_NOTICE, ROW_LABEL_KEPT, TrajectoryDecorator, trajectoryStyleText } from '../../src/client/trajectory/trajectory-decorate'
import { trajectoryRowKeys } from '../../src/client/trajectory/trajectory-rc8'

const TIME = Date.UTC(2026, 11, 1, 9, 5)

/** `{key}` placeholders filled like the locale service does. */
function translator(dictionary: Record<string, string>) {
  return (key: string, params: Record<string, string | number> = {}) => (dictionary[key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]))
}
const textsEn = markTexts(translator(trajectoryEn), translator(en))
const textsZh = markTexts(translator(trajectoryZh), translator(zh))

/** prompt (0), step 1 of turn 1 with a tool call (1) and its result (2), a tombstone (3) over `shadowed`. */
function log(action: TombstoneAction, shadowed: number[]): LogEvent[] {
  return [
    { type: 'user/message', seq: 0, time: 1, data: { role: 'user', id: 'p', content: [{ type: 'text', text: 'CANARY-9 prompt' }], source: { kind: 'user' } }, surfaceOp: 'append' },
    { type: 'assistant/message', seq: 1, time: 2, data: { turn: 1, step: 1, message: { role: 'assistant', content: [{ type: 'tool-call', id: 'call-7', name: 'read', arguments: '{}' }] } }, surfaceOp: 'append' },
    { type: 'tool/result', seq: 2, time: 3, data: { turn: 1, step: 1, message: { role: 'tool', source: { kind: 'tool', callId: 'call-7' }, content: [] } }, surfaceOp: 'append' },
    { type: 'user/message', seq: 3, time: TIME, data: { role: 'user', id: 't', content: [], source: tombstoneSource(action, shadowed) }, surfaceOp: { op: 'replace', start: shadowed[0]!, end: shadowed.at(-1)! }, sourceEventSeqs: shadowed },
  ] as LogEvent[]
}

const KEY_USER = encodeURIComponent('user\u0000seq\u00000')
const KEY_ASSISTANT = encodeURIComponent('assistant\u00001\u00001')
const KEY_TOOL = encodeURIComponent('tool\u0000call\u0000call-7')

describe('trajectory marks from a log', () => {
  it('row keys follow the rc.8 record ids', () => {
    const events = log('delete', [0])
    assert.deepEqual(trajectoryRowKeys(events[0]!), [KEY_USER, encodeURIComponent('context\u0000seq\u00000')])
    assert.deepEqual(trajectoryRowKeys(events[1]!), [KEY_ASSISTANT])
    assert.deepEqual(trajectoryRowKeys(events[2]!), [KEY_TOOL])
  })

  it('a deleted step marks its message and its tool row; a log without tombstones marks nothing', () => {
    const marks = trajectoryMarks(log('delete', [1, 2]))
    assert.deepEqual([...marks.keys()], [KEY_ASSISTANT, KEY_TOOL])
    assert.deepEqual(marks.get(KEY_TOOL), { seq: 2, tombstoneSeq: 3, action: 'delete', time: TIME })
    assert.equal(trajectoryMarks(log('delete', [0]).slice(0, 3)).size, 0)
  })

  it('labels in English and Chinese name the action as its button does, with the time', () => {
    const mark = { seq: 0, tombstoneSeq: 3, action: 'deleteFrom' as const, time: TIME }
    assert.equal(textsEn.row(mark), `Removed by Delete onward · ${markTime(TIME)}`)
    assert.equal(textsZh.row(mark), `已由“删除以下”移除 · ${markTime(TIME)}`)
    assert.equal(textsEn.inspector(mark), `Removed by Delete onward at ${markTime(TIME)}. Its content is hidden.`)
    assert.equal(textsEn.row({ ...mark, action: 'exclude' }), 'Excluded · not sent to the model')
    assert.equal(textsZh.inspector({ ...mark, action: 'exclude' }), `这条事件已排除（${markTime(TIME)}）：它留在视图中，但不发送给模型。`)
    assert.equal(textsEn.show, 'Show removed content')
    assert.equal(textsZh.show, '显示已移除的内容')
  })

  it('the style sheet masks removed rows and only labels excluded ones', () => {
    const removed = trajectoryStyleText(trajectoryMarks(log('recall', [0])), textsEn)
    assert.ok(removed.includes(`tr[data-trajectory-row-key="${KEY_USER}"] > td:last-child > * { display: none !important; }`))
    assert.ok(removed.includes(`content: "Removed by Recall · ${markTime(TIME)}" !important`))
    const excluded = trajectoryStyleText(trajectoryMarks(log('exclude', [0])), textsEn)
    assert.equal(excluded.includes('> td:last-child > * { display: none'), false)
    assert.ok(excluded.includes('content: "Excluded · not sent to the model" !important'))
  })
})

describe('the decorator over an rc.8-shaped Trajectory tab', () => {
  let decorator: TrajectoryDecorator | undefined
  afterEach(() => {
    decorator?.dispose()
    decorator = undefined
    document.body.innerHTML = ''
  })

  /** A table with the three rows and an inspector showing the selected row's content. */
  function tab(selected: string): void {
    const row = (key: string, text: string) => `<tr data-trajectory-row-key="${key}" aria-label="Request 1, ${text}"${key === selected ? ' data-selected="true"' : ''}><td>kind</td><td><span>${text}</span></td></tr>`
    document.body.innerHTML = `<table><tbody>${row(KEY_USER, 'CANARY-9 prompt')}${row(KEY_ASSISTANT, 'read')}${row(KEY_TOOL, 'read result')}</tbody></table>`
      + `<aside aria-label="Event details"><div role="separator"></div><div class="body">CANARY-9 prompt</div></aside>`
  }

  it('masks the inspector of a removed row until "Show removed content" is clicked, and again after another selection', async () => {
    tab(KEY_USER)
    decorator = new TrajectoryDecorator(document)
    decorator.update(trajectoryMarks(log('delete', [0])), textsEn)
    const aside = document.querySelector('aside')!
    const row = document.querySelector(`tr[data-trajectory-row-key="${KEY_USER}"]`)!
    assert.equal(row.getAttribute('aria-label'), `Removed by Delete · ${markTime(TIME)}`)
    assert.equal(row.getAttribute(ROW_LABEL_KEPT), 'Request 1, CANARY-9 prompt')
    assert.ok(aside.hasAttribute(INSPECTOR_MASKED))
    const notice = aside.querySelector(`[${INSPECTOR_NOTICE}]`)!
    assert.equal(aside.firstElementChild, notice)
    assert.equal(notice.querySelector('p')!.textContent, `Removed by Delete at ${markTime(TIME)}. Its content is hidden.`)
    const button = notice.querySelector('button')!
    assert.equal(button.textContent, 'Show removed content')
    assert.equal(button.getAttribute('type'), 'button')

    button.click()
    assert.equal(aside.hasAttribute(INSPECTOR_MASKED), false)
    assert.equal(notice.querySelector('button'), null)

    // Another row, then back: masked again.
    row.removeAttribute('data-selected')
    document.querySelector(`tr[data-trajectory-row-key="${KEY_ASSISTANT}"]`)!.setAttribute('data-selected', 'true')
    await settle()
    assert.equal(aside.querySelector(`[${INSPECTOR_NOTICE}]`), null, 'an unmarked row has no notice')
    assert.equal(aside.hasAttribute(INSPECTOR_MASKED), false)
    document.querySelector(`tr[data-trajectory-row-key="${KEY_ASSISTANT}"]`)!.removeAttribute('data-selected')
    row.setAttribute('data-selected', 'true')
    await settle()
    assert.ok(aside.hasAttribute(INSPECTOR_MASKED))
    assert.equal(aside.querySelector(`[${INSPECTOR_NOTICE}] button`)!.textContent, 'Show removed content')
  })

  it('an excluded row keeps its content and says it is not sent; no marks put every label back', async () => {
    tab(KEY_USER)
    decorator = new TrajectoryDecorator(document)
    decorator.update(trajectoryMarks(log('exclude', [0])), textsZh)
    const aside = document.querySelector('aside')!
    assert.equal(aside.hasAttribute(INSPECTOR_MASKED), false)
    assert.equal(aside.querySelector(`[${INSPECTOR_NOTICE}] p`)!.textContent, `这条事件已排除（${markTime(TIME)}）：它留在视图中，但不发送给模型。`)
    assert.equal(aside.querySelector(`[${INSPECTOR_NOTICE}] button`), null)
    assert.equal(document.querySelector(`tr[data-trajectory-row-key="${KEY_USER}"]`)!.getAttribute('aria-label'), 'Request 1, CANARY-9 prompt')

    decorator.update(trajectoryMarks(log('delete', [0])), textsEn)
    decorator.update(new Map(), textsEn)
    await settle()
    const row = document.querySelector(`tr[data-trajectory-row-key="${KEY_USER}"]`)!
    assert.equal(row.getAttribute('aria-label'), 'Request 1, CANARY-9 prompt')
    assert.equal(row.hasAttribute(ROW_LABEL_KEPT), false)
    assert.equal(aside.querySelector(`[${INSPECTOR_NOTICE}]`), null)
    assert.equal(document.querySelector('style[data-message-recall-trajectory]')!.textContent, '')
  })
})
