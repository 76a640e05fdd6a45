/**
 * What the Removed panel and the editor show of a removal: its time in the chat's own clock
 * (`HH:mm` the same day, the chat's month/day and year-month-day templates before that), in
 * English and Chinese through the real rc.8 LocaleRuntime; and a `dsh-tool-fs` result envelope
 * (`<path>…</path><type>…</type><content>…</content>`) read as its path and content.
 */
import './support/dom'
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Context } from '@deepseek-ai/cordis'
import { DICTIONARIES, LOCALE_NS } from '../../src/client/text/locales'
import { removalTime } from '../../src/client/panel/RemovedPanel'
import { readableToolText } from '../../src/client/text/tool-result-text'
import { excerpt } from '../../src/client/panel/removal-list'
import { clientLocale } from './support/rc8-client'

describe('removal time', () => {
  it('reads as the chat reads a message time: 24-hour clock, the date only on another day', () => {
    const locale = new clientLocale.LocaleRuntime(new Context())
    const dispose = locale.register(LOCALE_NS, DICTIONARIES)
    const t = locale.bind(LOCALE_NS)
    const now = new Date(2026, 10, 30, 18, 2).getTime()
    const sameDay = new Date(2026, 10, 30, 17, 55).getTime()
    const earlier = new Date(2026, 1, 3, 5, 7).getTime()
    const lastYear = new Date(2025, 11, 31, 23, 59).getTime()
    locale.setLocale('en')
    assert.deepEqual([sameDay, earlier, lastYear].map((time) => removalTime(time, t, now)), ['17:55', '2/3 05:07', '2025-12-31 23:59'])
    locale.setLocale('zh')
    assert.deepEqual([sameDay, earlier, lastYear].map((time) => removalTime(time, t, now)), ['17:55', '2月3日 05:07', '2025年12月31日 23:59'])
    dispose()
  })
})

describe('readable tool result text', () => {
  it('reads a dsh-tool-fs read, write and image envelope as path and content, and keeps any other text', () => {
    const read = '<path>/tmp/notes.txt</path>\n<type>file</type>\n<content>\n1: first line\n2: second line\n\n(End of file - total 2 lines)\n</content>'
    assert.equal(readableToolText(read), '/tmp/notes.txt — 1: first line\n2: second line\n\n(End of file - total 2 lines)')
    assert.equal(excerpt(`read: ${readableToolText(read)}`), 'read: /tmp/notes.txt — 1: first line 2: second line (End of file - total 2…', 'cut at 80 characters')
    assert.equal(readableToolText('<path>/tmp/a.md</path>\n<type>file</type>\n<content>\nCreated file\n</content>'), '/tmp/a.md — Created file')
    assert.equal(readableToolText('<path>/tmp/p.png</path>\n<type>image</type>\n<content>\nimage/png image, 1x1 px, 67 bytes\n</content>'), '/tmp/p.png — image/png image, 1x1 px, 67 bytes')
    assert.equal(readableToolText('<path>/tmp/empty</path>\n<type>file</type>\n<content>\n</content>'), '/tmp/empty')
    for (const text of ['config a', '<path>/tmp/x</path> and more', '<b>bold</b>', '']) assert.equal(readableToolText(text), text)
  })
})
