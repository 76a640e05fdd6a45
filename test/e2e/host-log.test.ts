/**
 * The plugin's log lines in the host's output, without a browser, on the full `dsh web` host
 * started as `npm start` starts it (`tools/dsh-host.ts` `startHost`, its output appended to a log
 * file). rc.8's `dsh web` prints no cordis log line, so the plugin prints its own
 * (`src/host/host-log.ts`): a pending erase of a session that is gone, and a failed one, are
 * dropped at start, each with its warning in `host.log`, and a second host on the same DSH home prints the `HOME_IN_USE`
 * line naming the first host's pid once, with the pending erases' wait.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { addPlugin, ensureHostInstalled, startHost, type RunningHost } from '../../tools/dsh-host'
import { homeInUseMessage, PLUGIN_LOCK_FILE, type LockHolder } from '../../src/host/home-lock'
import { hostFolders } from './harness'

/** The log file's lines once `line` is among them (checked every 50 ms, up to `timeoutMs`). */
async function linesOnceLogged(file: string, line: string, timeoutMs = 30_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : []
    if (lines.includes(line)) return lines
    if (Date.now() > deadline) assert.fail(`${file} lacks the line ${JSON.stringify(line)}; it holds:\n${lines.join('\n')}`)
    await new Promise((done) => setTimeout(done, 50))
  }
}

describe('the host log (dsh web)', () => {
  const { dir, home } = hostFolders('host-log')
  const hosts: RunningHost[] = []
  before(() => {
    ensureHostInstalled({ log: (l) => process.stderr.write(`[e2e] ${l}\n`) })
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(join(home, 'message-recall'), { recursive: true })
    addPlugin({ dshHome: home })
  })
  after(async () => {
    for (const host of hosts) await host.stop().catch(() => {})
  })

  it('holds the warning of a pending erase dropped at start, and a second host prints HOME_IN_USE once', async () => {
    const pending = { sessionId: 'session-gone', tombstoneSeq: 7, scheduledAt: '2026-01-02T03:04:05.000Z', messageSeqs: [5], imageCount: 0, fileCount: 0, state: 'pending' }
    const failed = { sessionId: 'session-gone-failed', tombstoneSeq: 9, scheduledAt: '2026-01-02T03:04:05.000Z', messageSeqs: [5], imageCount: 0, fileCount: 0, state: 'failed', problem: 'message-recall: the log could not be read' }
    writeFileSync(join(home, 'message-recall', 'pending-erases.json'), `${JSON.stringify({ version: 1, erases: [pending, failed] }, null, 2)}\n`)
    const firstLog = join(dir, 'host.log')
    hosts.push(await startHost({ dshHome: home, port: 0, logFile: firstLog }))
    const dropped = 'message-recall: pending erase of removal 7 of session "session-gone": dropped: no session "session-gone" (neither open in this host nor stored)'
    const lines = await linesOnceLogged(firstLog, dropped)
    assert.equal(lines.filter((line) => line === dropped).length, 1)
    const droppedFailed = 'message-recall: pending erase of removal 9 of session "session-gone-failed": dropped: no session "session-gone-failed" (neither open in this host nor stored)'
    assert.equal((await linesOnceLogged(firstLog, droppedFailed)).filter((line) => line === droppedFailed).length, 1, 'a failed erase of a gone session is dropped too')
    assert.deepEqual(JSON.parse(readFileSync(join(home, 'message-recall', 'pending-erases.json'), 'utf8')), { version: 1, erases: [] }, 'dropped from the file')

    const holder = JSON.parse(readFileSync(join(home, 'sessions', PLUGIN_LOCK_FILE), 'utf8')) as LockHolder
    assert.equal(holder.pid, hosts[0]!.pid, 'the first host holds the home')
    const secondLog = join(dir, 'host-2.log')
    hosts.push(await startHost({ dshHome: home, port: 0, logFile: secondLog }))
    const inUse = `${homeInUseMessage(holder)} (lock file ${PLUGIN_LOCK_FILE} in the sessions folder)`
    assert.ok(inUse.includes(`pid ${hosts[0]!.pid}`), inUse)
    const wait = `message-recall: the pending erases wait: ${homeInUseMessage(holder)}`
    await linesOnceLogged(secondLog, wait)
    // A refused write does not print the line again.
    const refused = await fetch(`${hosts[1]!.url}/dsh-message-recall`, { method: 'POST', headers: { 'content-type': 'application/json', origin: hosts[1]!.url }, body: JSON.stringify({ action: 'flush', sessionId: 'session-gone' }) })
    assert.equal(refused.status, 409)
    assert.equal((await refused.json() as { error: { code: string } }).error.code, 'HOME_IN_USE')
    const second = await linesOnceLogged(secondLog, inUse)
    assert.equal(second.filter((line) => line === inUse).length, 1, 'printed once')
  })
})
