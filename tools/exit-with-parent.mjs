// Imported for its effect: this process stops itself when the process that started it is gone.
// `npm start` runs the mock model and `dsh web` in their own process groups (so a terminal
// Ctrl-C reaches only start.mjs, which then stops them in order); without this they would
// outlive a start.mjs that died without running its handlers (SIGKILL, a crash in native code)
// and keep running under PPID 1. The host loads it with `node --import`; the mock model's
// CLI imports it.
//
// Linux and macOS give no portable parent-death signal to Node code, so the parent pid is read
// every 500 ms (a getter over getppid(2); an unref'd timer, so it never keeps a process alive).
// When it changes, the process sends itself SIGTERM, so its own shutdown handlers run as on
// an ordinary stop.

const POLL_MS = 500
const parent = process.ppid

if (parent > 1) {
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    process.kill(process.pid, 'SIGTERM')
  }, POLL_MS)
  timer.unref()
}
