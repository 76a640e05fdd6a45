/**
 * DSH packages that only the pinned web host set carries (`host/package.json`), loaded for the host
 * tests that compose them with the real rc.8 host packages of the project's devDependencies: the
 * to-do tool, the goal service, its tools and its round driver, and the model-written session
 * title. `npm test` installs the host set from its committed lockfile before the first file runs
 * (`tools/test.ts`); a file run on its own installs it on first use, as the end-to-end suite does.
 *
 * @module test/support/host-packages
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Plugin } from '@deepseek-ai/cordis'
import { ensureHostInstalled, HOST_DIR } from '../../tools/dsh-host'

/**
 * Import one package of the pinned host set.
 * @param name - the package name, e.g. `@deepseek-ai/dsh-tool-todo`.
 * @returns the package's module namespace.
 * @throws when the host set cannot be installed or does not hold the package.
 */
export async function importHostPackage(name: string): Promise<Record<string, unknown>> {
  ensureHostInstalled({ quiet: true })
  const path = createRequire(join(HOST_DIR, 'package.json')).resolve(name)
  return (await import(pathToFileURL(path).href)) as Record<string, unknown>
}

/**
 * The side-state plugins of the `dsh-base` bundle as `bootDshApp`'s `plugins`: the to-do tool
 * (`dsh-tool-todo`, one `in_progress` at a time), the goal service (`dsh-goal`), the goal tools
 * (`dsh-tool-goal`) and the goal round driver (`dsh-goal-round-driver`).
 * @returns the plugins with their configs.
 */
export async function sideStatePlugins(): Promise<Array<{ plugin: Plugin; config?: unknown }>> {
  const [todo, goal, toolGoal, driver] = await Promise.all(['@deepseek-ai/dsh-tool-todo', '@deepseek-ai/dsh-goal', '@deepseek-ai/dsh-tool-goal', '@deepseek-ai/dsh-goal-round-driver'].map(importHostPackage))
  return [
    { plugin: todo as unknown as Plugin, config: { allowParallelInProgress: false } },
    { plugin: goal!.GoalService as Plugin, config: {} },
    { plugin: toolGoal as unknown as Plugin, config: {} },
    { plugin: driver as unknown as Plugin },
  ]
}
