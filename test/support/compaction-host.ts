/**
 * The host composition of the summary-rewrite tests: the real host (`bootDshApp`) with the token
 * meter and DSH's own compaction engine (`dsh-compaction-basic` `BasicCompactionEngine`, from the
 * pinned host set), on JSONL persistence roots, its provider pointed at DSH's mock model server,
 * which answers both the turns and the summarizer.
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
  return {
    roots,
    get model() {
      return started().model
    },
    boot(root) {
      const { model, engine } = started()
      return roots.boot(root, { tokenMeter: true, model: { baseURL: model.baseURL, apiKey: model.apiKey }, plugins: [{ plugin: engine, config: {} }] })
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
