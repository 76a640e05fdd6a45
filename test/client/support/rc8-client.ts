/**
 * The real DSH 0.1.0-rc.8 browser packages, loaded in Node for the client tests. Their published
 * `lib/client.js` files are classic scripts in the rc.8 module-loader wrapper
 * (`window.__ModuleLoader__.load({ id, factory })`); this module evaluates them and calls each
 * factory with a `require` that resolves the seed words the real page provides: `react`,
 * `react/jsx-runtime`, `@deepseek-ai/cordis`, `@deepseek-ai/dsh-client-ui-slots` (its newest
 * published build, 0.1.0-rc.6) and `@deepseek-ai/dsh-client-runtime/client`. The paths used here
 * never touch `@deepseek-ai/dsh-client-ui-primitives` (not published for rc.8); it resolves to an
 * object that throws on any read, so a use would fail loudly.
 *
 * What is real: the conversation engine (`ConversationNodeAssembler`), its registries, every Chat
 * Definition ui-conversation registers (rows, keys, kinds, payloads), the `SlotRegistry` and the
 * `LocaleRuntime`. ui-conversation exports no Definition, so {@link registerChatDefinitions} runs
 * its `apply` up to the point where it has registered them (`registerConversationNodes` is the
 * first thing it does) and stops at the next step, which needs the whole web shell.
 *
 * @module test/client/support/rc8-client
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import vm from 'node:vm'
import * as cordis from '@deepseek-ai/cordis'
import * as uiSlots from '@deepseek-ai/dsh-client-ui-slots'
import * as React from 'react'
import * as jsxRuntime from 'react/jsx-runtime'

const require = createRequire(import.meta.url)
type Factory = (require: (id: string) => unknown) => Record<string, any>

const unused = new Proxy({}, { get: (_t, key) => { throw new Error(`dsh-client-ui-primitives.${String(key)} read in a client test`) } })
const modules: Record<string, unknown> = {
  react: React, 'react/jsx-runtime': jsxRuntime, '@deepseek-ai/cordis': cordis,
  '@deepseek-ai/dsh-client-ui-slots': uiSlots, '@deepseek-ai/dsh-client-ui-primitives': unused,
}

function load(pkg: string): Record<string, any> {
  const file = require.resolve(`${pkg}/package.json`).replace(/package\.json$/, 'lib/client.js')
  let factory: Factory | undefined
  const loader = { load: ({ id, factory: f }: { id: string; factory: Factory }) => { if (id === pkg) factory = f } }
  const run = vm.runInThisContext(`(function (window) {\n${readFileSync(file, 'utf8')}\n})`, { filename: file }) as (w: unknown) => void
  run({ __ModuleLoader__: loader })
  if (factory === undefined) throw new Error(`${pkg}: bundle did not register through the module loader`)
  return factory((id) => {
    if (id in modules) return modules[id]
    throw new Error(`${pkg} requires ${id}, which the test loader does not provide`)
  })
}

/** `@deepseek-ai/dsh-client-runtime/client` exports. */
export const runtime = load('@deepseek-ai/dsh-client-runtime')
modules['@deepseek-ai/dsh-client-runtime/client'] = runtime
/** `@deepseek-ai/dsh-client-ui-conversation` exports (`apply`, `inject`, `ConversationController`). */
export const uiConversation = load('@deepseek-ai/dsh-client-ui-conversation')
/** `@deepseek-ai/dsh-client-locale` exports (`LocaleRuntime`, …). */
export const clientLocale = load('@deepseek-ai/dsh-client-locale')

/**
 * Register ui-conversation's Chat Definitions and Chat view target into real registries.
 * @param events - a real `ConversationEventRegistry`.
 * @param views - a real `ConversationViewRegistry`.
 * @throws when ui-conversation stops for any reason other than the missing web shell.
 */
export function registerChatDefinitions(events: unknown, views: unknown): void {
  try {
    uiConversation.apply({ conversationEvents: events, conversationViews: views })
  } catch (error) {
    // The step after registerConversationNodes is registerChatNodeRenderers(ctx), which reads ctx.slots.
    if (!(error instanceof TypeError) || !/reading 'inject'/.test(error.message)) throw error
    return
  }
  throw new Error('ui-conversation apply ran past its Definitions without the web shell')
}
