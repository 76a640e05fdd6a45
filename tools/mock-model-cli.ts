// The mock model as a process, for `npm start` (tools/mock-model.ts is the model itself):
//   node --import tsx tools/mock-model-cli.ts [--port N] [--text ANSWER]
// prints `mock-model ready <baseURL>` (baseURL ends in /v1) and one JSON line per answered
// request. It stops on SIGTERM, SIGINT or SIGHUP, and by itself when the process that started
// it is gone (tools/exit-with-parent.ts, imported first so it is armed before anything
// asynchronous). The stop handlers are installed before the model starts, so a signal sent the
// moment `ready` is read always finds them.
import './exit-with-parent'
import { parseArgs } from 'node:util'
import { startMockModel, type MockModel } from './mock-model'

const USAGE = 'usage: node --import tsx tools/mock-model-cli.ts [--port N] [--text ANSWER]\n'

let model: MockModel | undefined
let stopping = false
function stop(): void {
  if (stopping) return
  stopping = true
  // Before the model is up there is nothing to close: its servers end with the process.
  void (model ? model.close() : Promise.resolve()).finally(() => process.exit(0))
}
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, stop)

function fail(message: string): never {
  process.stderr.write(`mock-model: ${message}\n${USAGE}`)
  process.exit(2)
}

let values: { port?: string; text?: string; help?: boolean }
try {
  ({ values } = parseArgs({
    options: { port: { type: 'string' }, text: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true, allowPositionals: false,
  }))
} catch (error) {
  fail((error as Error).message)
}
if (values.help) {
  process.stdout.write(USAGE)
  process.exit(0)
}
const port = values.port === undefined ? 0 : Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be an integer 0-65535')

model = await startMockModel({
  port,
  ...(values.text === undefined ? {} : { defaultAnswer: values.text }),
  onRequest: (r) => process.stdout.write(JSON.stringify({ kind: r.kind, index: r.index, step: r.step, outcome: r.outcome, messages: r.body?.messages?.length }) + '\n'),
})
if (!stopping) process.stdout.write(`mock-model ready ${model.baseURL}\n`)
