/**
 * Process lifecycle of the dev tooling, with real processes on loopback:
 * - tools/with-node22.ts relays SIGINT/SIGTERM/SIGHUP to the script, returns its exit status
 *   (code or signal), and stops it when the relay loses its own parent;
 * - tools/exit-with-parent.ts (loaded by the mock model and the host) stops a detached process
 *   whose starter vanished without stopping it, also when the starter dies anywhere between
 *   spawning it and its `ready` line;
 * - tools/start.ts answers a taken port with one line, a DSH home another live `npm start` holds
 *   with one line naming its pid (its lock is released when it stops), and a Ctrl-C to the whole
 *   process group stops host and mock model once, in order;
 * - startHost (tools/dsh-host.ts) reports a taken port as EADDRINUSE and leaves no host behind.
 * The last two boot `dsh web`; the host set in host/ is installed first when missing, as `npm start` does.
 * Every pid a spawned process reports (its own, its children's) is killed after the file, so a
 * failing test leaves nothing running.
 */
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { ensureHostInstalled, PROJECT_ROOT, startHost } from '../../tools/dsh-host'
import { alive, gone } from './processes'

/** TypeScript entry points run as Node does them here: through tsx. */
const TS = ['--import', 'tsx']
const WITH_NODE22 = join(PROJECT_ROOT, 'tools', 'with-node22.ts')
const START = join(PROJECT_ROOT, 'tools', 'start.ts')
const MOCK = join(PROJECT_ROOT, 'tools', 'mock-model-cli.ts')
const FIXTURES = join(PROJECT_ROOT, 'test', 'tools', 'fixtures')
const SIGNAL_CHILD = join(FIXTURES, 'signal-child.ts')
const SPAWN_AND_REPORT = join(FIXTURES, 'spawn-and-report.ts')

const homes: string[] = []
const started: ChildProcess[] = []
/** Pids the spawned processes reported (`child N`, `ready N`, `(pid N)`): their own children and grandchildren. */
const reported = new Set<number>()
after(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  for (const pid of reported) if (alive(pid)) try { process.kill(pid, 'SIGKILL') } catch { /* gone */ }
  for (const dir of homes) rmSync(dir, { recursive: true, force: true })
})

function tempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recall-tools-'))
  homes.push(dir)
  return dir
}

/** A spawned process with its stdout/stderr collected and a way to wait for a line. */
function run(args: string[], options: { detached?: boolean } = {}) {
  const child = spawn(process.execPath, [...TS, ...args], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached })
  started.push(child)
  let stdout = ''
  let stderr = ''
  const waiters: Array<() => void> = []
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    stdout += c
    for (const m of c.matchAll(/\b(?:child|ready|pid) (\d+)/g)) reported.add(Number(m[1]))
    waiters.forEach((w) => w())
  })
  child.stderr!.setEncoding('utf8').on('data', (c: string) => { stderr += c })
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) => child.once('exit', (code, signal) => ok({ code, signal })))
  const waitFor = (re: RegExp, ms = 20_000) => new Promise<RegExpExecArray>((ok, fail) => {
    const check = () => {
      const m = re.exec(stdout)
      if (m) { clearTimeout(t); ok(m) }
    }
    const t = setTimeout(() => fail(new Error(`no ${re} within ${ms} ms; stdout:\n${stdout}\nstderr:\n${stderr}`)), ms)
    waiters.push(check)
    check()
  })
  return { child, exit, waitFor, get stdout() { return stdout }, get stderr() { return stderr } }
}

function holdPort(): Promise<{ server: Server; port: number }> {
  return new Promise((ok) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => ok({ server, port: (server.address() as { port: number }).port }))
  })
}

describe('tools/with-node22.ts', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    test(`relays ${signal} to the script and exits with the script's code`, async () => {
      const p = run([WITH_NODE22, SIGNAL_CHILD, 'exit:7'])
      const [, pid] = await p.waitFor(/ready (\d+)/)
      assert.notEqual(Number(pid), p.child.pid, 'the script runs as its own process')
      p.child.kill(signal)
      assert.deepEqual(await p.exit, { code: 7, signal: null })
      assert.match(p.stdout, new RegExp(`got ${signal}\\n`))
      assert.equal((p.stdout.match(/got /g) ?? []).length, 1, 'one signal in, one signal relayed')
    })
  }

  test('re-raises the signal that ended the script', async () => {
    const p = run([WITH_NODE22, SIGNAL_CHILD, 'die'])
    await p.waitFor(/ready \d+/)
    p.child.kill('SIGTERM')
    assert.deepEqual(await p.exit, { code: null, signal: 'SIGTERM' })
  })

  test('stops the script with SIGTERM when its own parent is gone', async () => {
    // spawn-and-report plays npm's `sh -c`: it dies by SIGKILL without passing anything on.
    const p = run([SPAWN_AND_REPORT, ...TS, WITH_NODE22, SIGNAL_CHILD, 'exit:0'])
    const [, relay] = await p.waitFor(/child (\d+)/)
    const [, script] = await p.waitFor(/ready (\d+)/)
    p.child.kill('SIGKILL')
    await p.waitFor(/got SIGTERM/, 5000)
    assert.ok(await gone(Number(script)), 'script stopped')
    assert.ok(await gone(Number(relay)), 'relay exited')
  })
})

describe('tools/mock-model-cli.ts', () => {
  for (const signal of ['SIGHUP', 'SIGINT', 'SIGTERM'] as const) {
    test(`stops on ${signal} sent the moment it says ready`, async () => {
      const p = run([MOCK, '--port', '0'])
      await p.waitFor(/mock-model ready http:\/\/127\.0\.0\.1:\d+\/v1/)
      p.child.kill(signal)
      assert.deepEqual(await p.exit, { code: 0, signal: null })
    })
  }

  test('stops by itself when the process that started it (detached) is gone', async () => {
    const p = run([SPAWN_AND_REPORT, ...TS, MOCK, '--port', '0'])
    const [, pid] = await p.waitFor(/child (\d+)/)
    await p.waitFor(/mock-model ready /)
    assert.ok(alive(Number(pid)), 'mock model runs while its starter lives')
    p.child.kill('SIGKILL')
    assert.ok(await gone(Number(pid), 2000), 'mock model stopped within 2 s of its starter')
  })

  test('stops within 2 s when its starter is killed at a random point between spawn and ready (20 times)', async (t) => {
    // How long the mock takes from spawn to ready here, to spread the kills over that window.
    const probe = run([SPAWN_AND_REPORT, ...TS, MOCK, '--port', '0'])
    const [, probePid] = await probe.waitFor(/child (\d+)/)
    const spawnedAt = Date.now()
    await probe.waitFor(/mock-model ready /)
    const window = Date.now() - spawnedAt
    probe.child.kill('SIGKILL')
    assert.ok(await gone(Number(probePid), 2000), 'the probe mock stopped')

    const outcomes: string[] = []
    let beforeReady = 0
    for (let attempt = 0; beforeReady < 20; attempt++) {
      assert.ok(attempt < 60, `20 kills before ready within 60 attempts (window ${window} ms): ${outcomes.join(', ')}`)
      const p = run([SPAWN_AND_REPORT, ...TS, MOCK, '--port', '0'])
      const [, pid] = await p.waitFor(/child (\d+)/)
      const delay = Math.floor(Math.random() * window)
      await new Promise((ok) => setTimeout(ok, delay))
      const wasReady = /mock-model ready /.test(p.stdout)
      p.child.kill('SIGKILL')
      const killedAt = Date.now()
      await p.exit
      const stopped = await gone(Number(pid), 2000)
      outcomes.push(`${delay} ms${wasReady ? ' (after ready)' : ''}: ${stopped ? `gone in ${Date.now() - killedAt} ms` : 'STILL RUNNING'}`)
      assert.ok(stopped, `mock model ${pid} stopped within 2 s of its starter killed ${delay} ms after spawn${wasReady ? ' (after ready)' : ''}`)
      if (!wasReady) beforeReady++
    }
    t.diagnostic(`spawn to ready ${window} ms; kill after spawn → mock gone: ${outcomes.join('; ')}`)
  })
})

// The host set is installed once (cached in host/node_modules), as `npm start` does.
before(() => { ensureHostInstalled() }, { timeout: 600_000 })

describe('tools/start.ts', () => {
  test('a taken port gives one line, exit 1, and starts nothing', async () => {
    const { server, port } = await holdPort()
    try {
      const home = tempHome()
      const p = run([START, '--port', String(port), '--home', home])
      assert.deepEqual(await p.exit, { code: 1, signal: null })
      assert.equal(p.stderr, `npm start: port ${port} is in use; pass --port 0 for a free one or --port N\n`)
      assert.equal(p.stdout, '')
      assert.deepEqual(readdirSync(home), [], 'no logs, no profile, no mock model')
    } finally {
      server.close()
    }
  })

  test('a second npm start on the same DSH home gives one line naming the first one\'s pid, exit 1; SIGTERM to the first releases the home', async () => {
    const home = tempHome()
    const first = run([START, '--port', '0', '--home', home])
    await first.waitFor(/DeepSeek Harness with \S+: http:\/\/127\.0\.0\.1:\d+/, 60_000)
    const lock = JSON.parse(readFileSync(join(home, 'npm-start.lock'), 'utf8'))
    assert.equal(lock.pid, first.child.pid)
    const second = run([START, '--port', '0', '--home', home])
    assert.deepEqual(await second.exit, { code: 1, signal: null })
    assert.equal(second.stderr, `npm start: DSH home ${home} is in use by npm start (pid ${first.child.pid}, since ${lock.startedAt}); stop that host first, or pass --home DIR\n`)
    assert.equal(second.stdout, '')
    first.child.kill('SIGTERM')
    assert.deepEqual(await first.exit, { code: 0, signal: null })
    assert.equal(existsSync(join(home, 'npm-start.lock')), false, 'the lock is released on SIGTERM')
  })

  test('Ctrl-C to the process group stops host and mock model once, in order', async () => {
    const p = run([WITH_NODE22, START, '--port', '0', '--home', tempHome()], { detached: true })
    const [, mockPid] = await p.waitFor(/mock model on \S+ \(pid (\d+)\)/, 60_000)
    const [, url] = await p.waitFor(/DeepSeek Harness with \S+: (http:\/\/127\.0\.0\.1:\d+)/, 60_000)
    assert.equal((await fetch(url!)).ok, true)
    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group.
    process.kill(-p.child.pid!, 'SIGINT')
    assert.deepEqual(await p.exit, { code: 0, signal: null })
    const [, hostPid] = /host \(pid (\d+)\) stopped\n/.exec(p.stdout) ?? []
    assert.ok(hostPid, `host stop reported:\n${p.stdout}`)
    assert.equal((p.stdout.match(/stopping…/g) ?? []).length, 1, 'one orderly stop')
    assert.ok(p.stdout.indexOf('host (pid') < p.stdout.indexOf('mock model (pid ' + mockPid + ') stopped'), 'host first, then mock')
    assert.equal(alive(Number(hostPid)), false, 'host gone')
    assert.equal(alive(Number(mockPid)), false, 'mock model gone')
  })
})

describe('startHost (tools/dsh-host.ts)', () => {
  test('a taken port rejects with EADDRINUSE and leaves no host running', async () => {
    const { server, port } = await holdPort()
    try {
      let child: ChildProcess | undefined
      await assert.rejects(
        startHost({ dshHome: tempHome(), port, onSpawn: (c) => { child = c } }),
        (error: NodeJS.ErrnoException & { port?: number }) => error.code === 'EADDRINUSE' && error.port === port,
      )
      assert.ok(child, 'onSpawn saw the host')
      assert.ok(child.exitCode !== null || child.signalCode !== null, 'host process has exited')
    } finally {
      server.close()
    }
  })
})
