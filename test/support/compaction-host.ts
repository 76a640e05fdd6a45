/**
 * The host composition of the summary-rewrite tests: the real host (`bootDshApp`) with the token
 * meter and DSH's own compaction engine (`dsh-compaction-basic` `BasicCompactionEngine`, from the
 * pinned host set), on JSONL persistence roots, its provider pointed at DSH's mock model server,
 * which answers both the turns and the summarizer; and the three-turn conversation those tests
 * script, around a canary in the first prompt.
 *
 * @module test/support/compaction-host
 */
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Plugin } from '@deepseek-ai/cordis'
import type { Session } from '@deepseek-ai/dsh-session'
import type { DshApp } from './dsh-app'
import { importHostPackage } from './host-packages'
import { startMockModel, type MockModel } from '../../tools/mock-model'
import { Roots } from '../host/helpers'

/** The compaction service as the tests call it (`dsh-compaction-basic`). */
export interface CompactionService {
  /** Compact the agent's session now; `null` when there was nothing to compact. */
  compactNow(agent: Agent, signal: AbortSignal): Promise<{ endSeq: number } | null>
}

/** One test file's compaction composition; see {@link compactionHost}. */
export interface CompactionHost {
  /** The persistence roots and the apps booted on them, all disposed after the file. */
  readonly roots: Roots
  /** The mock model (started before the file's first test). */
  readonly model: MockModel
  /** Boot an app on `root` with the token meter and the compaction engine. */
  boot(root: string): Promise<DshApp>
  /** A cold reload: stop `app` gracefully, then boot a fresh app on the same root. */
  restart(app: DshApp, root: string): Promise<DshApp>
  /** The app's compaction service. */
  compaction(app: DshApp): CompactionService
  /** The breakdown's message figure (`contextBreakdown.messageTokens`) and the exact positional measure (`tokenMeter.measure`), in tokens. */
  meter(app: DshApp, session: Session): { breakdown: number; measure: number }
}

/**
 * Set up the compaction composition for the calling test file: registers `before` (start the mock
 * model, load the engine) and `after` (dispose every app and root, close the model) hooks.
 * Call once at the top level of a test file.
 * @returns the file's composition.
 */
export function compactionHost(): CompactionHost {
  const roots = new Roots()
  let model: MockModel | undefined
  let engine: Plugin | undefined
  before(async () => {
    model = await startMockModel()
    engine = (await importHostPackage('@deepseek-ai/dsh-compaction-basic')).BasicCompactionEngine as Plugin
  })
  after(async () => {
    await roots.dispose()
    await model?.close()
  })
  const started = (): { model: MockModel; engine: Plugin } => {
    assert.ok(model !== undefined && engine !== undefined, 'the compaction host is used after its before() hook ran')
    return { model, engine }
  }
  const boot = (root: string): Promise<DshApp> => {
    const { model, engine } = started()
    return roots.boot(root, { tokenMeter: true, model: { baseURL: model.baseURL, apiKey: model.apiKey }, plugins: [{ plugin: engine, config: {} }] })
  }
  return {
    roots,
    get model() {
      return started().model
    },
    boot,
    async restart(app, root) {
      await roots.shut(app)
      return boot(root)
    },
    compaction(app) {
      return app.ctx.get('compaction') as never
    },
    meter(app, session) {
      const values = app.ctx.sessionProjections.snapshot(session).values as { contextBreakdown: { messageTokens: number } }
      return { breakdown: values.contextBreakdown.messageTokens, measure: app.ctx.tokenMeter.measure(session).surfaceTokens }
    },
  }
}

/** The filler that makes each turn of {@link launchScript} long enough for a compaction to fold. */
export const LAUNCH_FILLER = ' Keep every detail of this request in mind for the rest of the work, including the names, the numbers, the paths and the order of the steps, and say so when something changes.'

/**
 * The three-turn conversation of the summary-rewrite tests: a prompt giving a canary code word,
 * then the launch steps; and two summaries the mock model can answer a compaction with, the first
 * holding the canary.
 * @param canary - the code word.
 * @param filler - appended to each prompt and answer.
 * @returns the prompts `P1`…`P3`, the answers `A1`…`A3`, `SUMMARY1` (with the canary) and `SUMMARY2` (without).
 */
export function launchScript(canary: string, filler = LAUNCH_FILLER): Record<'P1' | 'A1' | 'P2' | 'A2' | 'P3' | 'A3' | 'SUMMARY1' | 'SUMMARY2', string> {
  return {
    P1: `Write down the secret code word ${canary} for later.${filler}`,
    A1: `Noted: the code word is recorded.${filler}`,
    P2: `Now list the three launch steps in order.${filler}`,
    A2: `First test, then stage, then ship.${filler}`,
    P3: `Which step comes second?${filler}`,
    A3: `Staging comes second.${filler}`,
    SUMMARY1: `The user gave the code word ${canary} and asked for the launch steps.`,
    SUMMARY2: 'The user asked for the three launch steps in order: test, stage, ship.',
  }
}
