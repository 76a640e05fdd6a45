// Builds lib/ from the TypeScript sources with esbuild (`npm run build`). lib/ is committed so
// that `dsh plugin add` needs no build step; `--check` rebuilds into a scratch folder and fails
// when the committed lib/ differs from a fresh build.
//
//   src/host/index.ts      -> lib/main.js            ESM, Node; DSH packages stay external
//   src/client/index.tsx   -> lib/client.js          classic script in the rc.8 module-loader wrapper
//   scripts/<name>.ts      -> lib/scripts/<name>.js  ESM, Node >= 20, self-contained (no DSH at run time,
//                                                   but for `erase`, which imports DSH's packages when it
//                                                   runs); shared code in lib/scripts/chunks/
import { build, type BuildOptions } from 'esbuild'
import { createHash } from 'node:crypto'
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? listFiles(p) : [p]
  }).sort()
}

// The client's build stamp is `<version>+<digest of the bundle itself>`: the bundle is built with
// a placeholder, hashed, and the placeholder replaced, so the stamp changes exactly when the
// bundle's bytes do and stays deterministic.
const STAMP_PLACEHOLDER = '__DSH_MESSAGE_RECALL_BUILD_STAMP__'

async function stampBundle(file: string): Promise<string> {
  const text = readFileSync(file, 'utf8')
  const stamp = `${pkg.version}+${createHash('sha256').update(text).digest('hex').slice(0, 10)}`
  writeFileSync(file, text.split(STAMP_PLACEHOLDER).join(stamp))
  return stamp
}

const WRAP_OPEN = `window.__ModuleLoader__.load({ id: ${JSON.stringify(pkg.name)}, factory: (require) => { var module = { exports: {} }; var exports = module.exports;`
const WRAP_CLOSE = 'return module.exports; } });'

/** Build every output into `outDir`; resolves with the client's build stamp. */
export async function buildAll(outDir: string): Promise<string> {
  const common: BuildOptions = { bundle: true, preserveSymlinks: true, logLevel: 'warning', legalComments: 'none', charset: 'utf8', define: { __BUILD_STAMP__: JSON.stringify(STAMP_PLACEHOLDER) } }
  let stamp = '(no client bundle)'
  const jobs: Array<Promise<unknown>> = []
  const hostEntry = join(root, 'src/host/index.ts')
  if (existsSync(hostEntry)) {
    jobs.push(build({
      ...common, entryPoints: [hostEntry], outfile: join(outDir, 'main.js'),
      format: 'esm', platform: 'node', target: 'node22', packages: 'external',
    }))
  }
  const clientEntry = ['src/client/index.tsx', 'src/client/index.ts'].map((p) => join(root, p)).find(existsSync)
  if (clientEntry) {
    jobs.push(build({
      ...common, entryPoints: [clientEntry], outfile: join(outDir, 'client.js'),
      format: 'cjs', platform: 'browser', target: 'es2022', jsx: 'automatic',
      // Seed words of the rc.8 module loader; everything else is bundled in.
      external: ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client', '@deepseek-ai/cordis'],
      banner: { js: WRAP_OPEN }, footer: { js: WRAP_CLOSE },
    }).then(async () => { stamp = await stampBundle(join(outDir, 'client.js')) }))
  }
  // Entries are the top-level scripts; the folders under scripts/ hold what they share.
  const scriptEntries = listFiles(join(root, 'scripts')).filter((f) => dirname(f) === join(root, 'scripts') && /\.ts$/.test(f) && !f.endsWith('.d.ts'))
  if (scriptEntries.length) {
    // One build with code splitting: the scripts share their decoding code through chunks.
    jobs.push(build({
      ...common, entryPoints: scriptEntries, outdir: join(outDir, 'scripts'), splitting: true,
      chunkNames: 'chunks/[name]-[hash]', format: 'esm', platform: 'node', target: 'node20',
      // Only `erase` reaches DSH's package roots and the invariant companions, through dynamic
      // imports: they stay external, in its own chunks (`@deepseek-ai/dsh-session/surface`, which the
      // read-only tools use, is bundled). `dsh-llm` stays external too: the agent-loop companion
      // recognizes a loop-built request by `dsh-llm`'s own mark, which a bundled copy would not set.
      plugins: [{ name: 'dsh-roots-external', setup: (b) => b.onResolve({ filter: /^@deepseek-ai\/(cordis|dsh-session|dsh-session-persistence-jsonl|dsh-invariants|dsh-llm|dsh-session\/invariant|dsh-compaction\/invariant|dsh-agent-loop\/invariant)$/ }, (args) => ({ path: args.path, external: true })) }],
      banner: { js: '#!/usr/bin/env node' },
    }))
  }
  await Promise.all(jobs)
  return stamp
}

function compareTrees(a: string, b: string): string[] {
  const rel = (base: string) => new Set(listFiles(base).map((f) => relative(base, f)))
  const fa = rel(a), fb = rel(b)
  const diffs: string[] = []
  for (const f of new Set([...fa, ...fb])) {
    if (!fa.has(f)) diffs.push(`missing in lib/: ${f}`)
    else if (!fb.has(f)) diffs.push(`not produced by the build: lib/${f}`)
    else if (!readFileSync(join(a, f)).equals(readFileSync(join(b, f)))) diffs.push(`differs from a fresh build: lib/${f}`)
  }
  return diffs.sort()
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check')
  if (check) {
    const scratch = mkdtempSync(join(tmpdir(), 'mr-build-'))
    try {
      await buildAll(scratch)
      const diffs = compareTrees(join(root, 'lib'), scratch)
      if (diffs.length) {
        console.error('lib/ is stale; run `npm run build` and commit lib/:\n  ' + diffs.join('\n  '))
        process.exit(1)
      }
      console.log('lib/ matches a fresh build')
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  } else {
    // Build into a scratch folder, then replace lib/ file by file (stale files removed).
    const scratch = mkdtempSync(join(tmpdir(), 'mr-build-'))
    try {
      const stamp = await buildAll(scratch)
      const lib = join(root, 'lib')
      for (const f of listFiles(lib)) if (!existsSync(join(scratch, relative(lib, f)))) rmSync(f)
      for (const f of listFiles(scratch)) {
        const dest = join(lib, relative(scratch, f))
        mkdirSync(dirname(dest), { recursive: true })
        copyFileSync(f, dest)
        // The scripts start with `#!/usr/bin/env node`: executable, as npm install leaves a bin entry.
        if (dirname(dest) === join(lib, 'scripts') && dest.endsWith('.js')) chmodSync(dest, 0o755)
      }
      console.log(`built lib/ (${stamp})`)
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }
}
