// Imported for its effect: this process stops itself when the process that started it is gone.
// `npm start` runs the mock model and `dsh web` in their own process groups (so a terminal
// Ctrl-C reaches only the starter, which then stops them in order); without this they would
// outlive a starter that died without running its handlers (SIGKILL, a crash in native code)
// and keep running under another parent. The host loads it with `node --import` (Node 22 strips
// the types itself, so this file imports nothing); the mock model's CLI imports it first.
//
// The starter names itself in the environment (PARENT_PID_ENV, see `parentPidEnv`), and the
// value is read when this module is evaluated, before anything asynchronous: a starter that died
// between spawn and this point is caught too, because the parent pid is then already another.
// Without the variable, the parent pid at evaluation is the one watched (when it is not init).
//
// Linux and macOS give no portable parent-death signal to Node code, so the parent pid is read
// every POLL_MS (a getter over getppid(2); an unref'd timer, so it never keeps a process alive).
// When it differs, the process sends itself SIGTERM, so its own shutdown handlers run as on an
// ordinary stop (and a process without handlers just ends).

/** Environment variable holding the pid of the process this one must not outlive. */
export const PARENT_PID_ENV = 'MESSAGE_RECALL_PARENT_PID'
/** How often the parent pid is read, in ms. */
export const POLL_MS = 200

/** The environment entry a starter gives a child that loads this module: `{ [PARENT_PID_ENV]: pid }`. */
export function parentPidEnv(pid: number = process.pid): Record<string, string> {
  return { [PARENT_PID_ENV]: String(pid) }
}

const named = Number(process.env[PARENT_PID_ENV])
// The child's own children get no stale value.
delete process.env[PARENT_PID_ENV]
const parent = Number.isInteger(named) && named > 0 ? named : process.ppid

if (parent > 1) {
  const check = (): boolean => {
    if (process.ppid === parent) return true
    process.kill(process.pid, 'SIGTERM')
    return false
  }
  if (check()) {
    const timer = setInterval(() => { if (!check()) clearInterval(timer) }, POLL_MS)
    timer.unref()
  }
}
