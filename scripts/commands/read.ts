/**
 * `read-session-log`: print a DSH session log as JSONL, every frame decoded in order, or its
 * frame index with byte offsets. Read-only.
 *
 * @module dsh-message-recall/scripts/commands/read
 */
import { COMMON_OPTIONS, DECODER_OPTION, parseOneTarget } from '../support/arguments'
import { EXIT, type LogCommand } from '../support/command'
import { formatBytes } from '../support/format-bytes'
import { decoderOption } from '../support/option-values'
import { ChunkedOutput, out } from '../support/output'
import { fileProgress } from '../support/progress'
import { UsageLineError } from '../support/usage-errors'
import type { LogProblem, LogRecord } from '../../src/log/log-frames'
import type { FrameReport } from '../../src/log/frame-batches'
import { resolveSessionLog } from '../../src/log/log-file'
import { readSessionLog, type SessionLogRead } from '../../src/log/session-log'
import { counted, forCount } from '../../src/log/counted'

const usage = (invocation: string): string => `Usage: ${invocation} <log file | session folder> [options]

Prints the log as JSONL: the header line, then every stored line in order, packed chunk
rows as they are stored. Reads session.jsonl.zstd (every frame) and plain session.jsonl.

Options:
  --frames          print the frame index instead: byte offsets, sizes, lines per frame
  --expand          print events instead of stored lines (packed chunk rows expanded)
  --json            one JSON document instead of text
  --decoder NAME    auto (default), zlib, zlib-oneshot, zstd-cli, fzstd
  -h, --help        this text

Exit codes: 0 read to the last byte; 1 torn tail, corrupt frame or bad line (everything
intact before it is printed; the problem goes to stderr); 2 bad usage or unreadable input.
`

const OPTIONS = { ...COMMON_OPTIONS, ...DECODER_OPTION, frames: { type: 'boolean' }, expand: { type: 'boolean' } } as const

function problemLines(read: SessionLogRead): string[] {
  const lines = read.problems.map((p: LogProblem) => `problem: ${p.message}`)
  if (read.tail) {
    const n = read.tail.recoverableLines
    const recover = n ? ` (${counted(n, 'complete line')} ${forCount(n, 'is', 'are')} decodable from it)` : ''
    lines.push(`torn tail: ${read.tail.description}${recover}`)
  }
  return lines
}

function frameRow(report: FrameReport): string {
  const { frame } = report
  const lines = report.lastLine >= report.firstLine ? `${report.firstLine}-${report.lastLine}` : '-'
  const decoded = report.decodedBytes === null ? `FAILED: ${report.error}` : String(report.decodedBytes)
  const check = frame.kind === 'skippable' ? 'skippable' : frame.checksum === null ? 'none' : '0x' + frame.checksum.toString(16).padStart(8, '0')
  return [String(frame.index).padStart(6), String(frame.start).padStart(12), String(frame.end).padStart(12), String(frame.end - frame.start).padStart(9), decoded.padStart(9), lines.padStart(13), check].join('  ')
}

function frameJson(report: FrameReport): object {
  const { frame } = report
  return {
    index: frame.index,
    kind: frame.kind,
    start: frame.start,
    end: frame.end,
    compressedBytes: frame.end - frame.start,
    decodedBytes: report.decodedBytes,
    contentSize: frame.contentSize,
    checksum: frame.checksum,
    blocks: frame.blocks,
    firstLine: report.firstLine,
    lastLine: report.lastLine,
    ...(report.error !== undefined ? { error: report.error } : {}),
  }
}

function summaryJson(read: SessionLogRead): object {
  return {
    file: read.file.path,
    format: read.file.format,
    decoder: read.decoder,
    fallbackDecoder: read.fallbackDecoder,
    size: read.file.size,
    bytesConsumed: read.bytesConsumed,
    decodedBytes: read.decodedBytes,
    frames: read.frames,
    lines: read.lines,
    events: read.events,
    lastSeq: read.lastSeq,
    tail: read.tail,
    problems: read.problems,
  }
}

async function run(argv: readonly string[], invocation: string): Promise<number> {
  const { values, target } = parseOneTarget(argv, OPTIONS, 'the log file or session folder')
  if (target === null) {
    await out(usage(invocation))
    return EXIT.ok
  }
  if (values.frames && values.expand) throw new UsageLineError('--frames and --expand do not combine')
  const decoder = decoderOption(values.decoder)
  const file = await resolveSessionLog(target)
  const json = values.json === true
  // On a terminal the output itself shows the progress (and a progress line would cut into it).
  const bar = fileProgress('read', process.stdout.isTTY === true ? 0 : file.size)

  if (values.frames) {
    if (file.format !== 'zstd') throw new UsageLineError(`${file.path} is a plain JSONL log; it has no frames`)
    const output = new ChunkedOutput()
    if (json) output.addText(`{"frames":[`)
    else output.addText(`${'frame'.padStart(6)}  ${'start'.padStart(12)}  ${'end'.padStart(12)}  ${'bytes'.padStart(9)}  ${'decoded'.padStart(9)}  ${'lines'.padStart(13)}  checksum\n`)
    const read = await readSessionLog(file, {
      decoder,
      needsFrames: true,
      parse: false,
      onFrame: (report) => (json ? output.addJsonValue(JSON.stringify(frameJson(report))) : output.addText(frameRow(report) + '\n')),
      onProgress: bar.onProgress,
      flush: () => output.drain(),
    })
    bar.done()
    if (json) output.addText(`],"summary":${JSON.stringify(summaryJson(read))}}\n`)
    else output.addText(`${counted(read.frames, 'frame')}, ${formatBytes(read.bytesConsumed)} of ${formatBytes(file.size)} consumed, ${counted(read.lines, 'line')}, ${counted(read.events, 'event')}, decoder ${read.decoder}${read.fallbackDecoder ? ` (${read.fallbackDecoder} for frames the zstd tool refused)` : ''}\n`)
    await output.end()
    if (!json) for (const line of problemLines(read)) process.stderr.write(line + '\n')
    return read.problems.length > 0 || read.tail ? EXIT.problem : EXIT.ok
  }

  // Lines go out as stored, in large chunks, as frames are decoded; stdout back-pressure is
  // honoured after each batch of frames.
  const output = new ChunkedOutput()
  if (json) output.addText(`{"records":[`)
  const expanded = {
    onHeader: (_header: unknown, text: string) => (json ? output.addJsonValue(text) : output.addText(text + '\n')),
    onRecord: (record: LogRecord) => {
      for (const event of record.events ?? []) {
        const text = JSON.stringify(event)
        if (json) output.addJsonValue(text)
        else output.addText(text + '\n')
      }
    },
  }
  const stored = { onLines: (bytes: Uint8Array) => (json ? output.addJsonLines(bytes) : output.add(bytes)) }
  const read = await readSessionLog(file, {
    decoder,
    parse: values.expand === true,
    expand: values.expand === true,
    ...(values.expand ? expanded : stored),
    onProgress: bar.onProgress,
    flush: () => output.drain(),
  })
  bar.done()
  if (json) output.addText(`],"summary":${JSON.stringify(summaryJson(read))}}\n`)
  await output.end()
  if (!json) for (const line of problemLines(read)) process.stderr.write(line + '\n')
  return read.problems.length > 0 || read.tail ? EXIT.problem : EXIT.ok
}

/** `read-session-log`, the `read` subcommand. */
export const readCommand: LogCommand = { name: 'read', script: 'read-session-log', summary: 'print a session log as JSONL, or its frame index', usage, run }
