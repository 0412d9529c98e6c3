// Bundles the CLI and the library into dist/; commands become lazily loaded chunks. dist/cli.cjs (the
// binary's first module), dist/hook.cjs (`ctx hook …`) and dist/fast.cjs (`ctx blame FILE`) are single
// files: the hook runs on every turn of an agent, and each module node loads costs it more than a
// millisecond (docs/performance.md).
import { build } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
// `--no-types` (npm test, demo, bench) leaves dist/types as it is: only `npm run build` (and so a pack) writes it
const withTypes = !process.argv.includes('--no-types');
if (existsSync('dist')) for (const entry of readdirSync('dist')) if (entry !== 'types' || withTypes) rmSync(`dist/${entry}`, { recursive: true, force: true });

// dist/types: the declarations of package.json's "exports" (tsconfig.types.json: emitted without a type
// check, `npm run typecheck` does that), in a process beside the bundles so the build waits less for it
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const types = !withTypes ? 0 : new Promise((done) => spawn(process.execPath, [tsc, '-p', 'tsconfig.types.json'], { stdio: 'inherit' }).on('close', done));

// cl100k_base's ranks, serialized once here (src/core/cl100k-ranks.ts run at build time) into
// dist/chunks/cl100k_base.ranks; in dist/ that module becomes one read of this file, so a process
// that counts tokens reads 2 MB instead of parsing gpt-tokenizer's 100,000-entry list and building
// its maps (~80 ms).
const ranksModule = await build({ entryPoints: ['src/core/cl100k-ranks.ts'], bundle: true, write: false, format: 'esm', platform: 'node', logLevel: 'warning' });
const { rankTable } = await import(`data:text/javascript;base64,${Buffer.from(ranksModule.outputFiles[0].contents).toString('base64')}`);
mkdirSync('dist/chunks', { recursive: true });
writeFileSync('dist/chunks/cl100k_base.ranks', rankTable());
/** `./cl100k-ranks.js` as one read of the serialized ranks, `dir` being where the file is from the module. */
const prebuiltRanks = (dir, cjs = false) => ({
  name: 'prebuilt-ranks',
  setup(b) {
    b.onResolve({ filter: /^\.\/cl100k-ranks\.js$/ }, () => ({ path: 'cl100k-ranks', namespace: 'prebuilt-ranks' }));
    // a CommonJS bundle finds the file from its __dirname: a file URL would load node's URL code on every hook
    b.onLoad({ filter: /.*/, namespace: 'prebuilt-ranks' }, () => ({
      contents: cjs
        ? `import { readFileSync } from 'node:fs';\nimport { join } from 'node:path';\nexport function rankTable() { return readFileSync(join(__dirname, '${dir}cl100k_base.ranks')); }\n`
        : `import { readFileSync } from 'node:fs';\nexport function rankTable() { return readFileSync(new URL('${dir}cl100k_base.ranks', import.meta.url)); }\n`,
      loader: 'js',
    }));
  },
});
/**
 * hash-wasm's base64 decoder of its WebAssembly as node's own: its JavaScript loop over BLAKE3's 15 KB ran
 * in every hook that hashes, then was compiled by TurboFan; the same bytes, in an ArrayBuffer of their own.
 */
const nativeBase64 = {
  name: 'native-base64',
  setup(b) {
    b.onLoad({ filter: /hash-wasm[\\/]dist[\\/]index\.esm\.js$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      const head = 'function decodeBase64(data) {\n';
      if (!source.includes(head)) throw new Error(`${path}: no decodeBase64 to replace`);
      return { contents: source.replace(head, `${head}    return new Uint8Array(Buffer.from(data, 'base64'));\n`), loader: 'js' };
    });
  },
};
// optional peer dependencies (package.json peerDependenciesMeta), and what they bring along
const PEERS = [...Object.keys(pkg.peerDependencies ?? {}), '@langchain/*', '@openai/*', '@anthropic-ai/*', '@modelcontextprotocol/*', 'zod', 'zod/*'];
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // jsonc-parser's main (UMD) requires its parts at run time, which a bundle cannot: take its ESM build;
  // hash-wasm's ESM build, so only BLAKE3 is bundled, not its 27 other hashes (300 KB)
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js', 'hash-wasm': 'hash-wasm/dist/index.esm.js' },
  define: { __CTX_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: "import { createRequire as __ctxRequire } from 'node:module'; const require = __ctxRequire(import.meta.url);" },
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: {
    main: 'src/cli/main.ts',
    index: 'src/index.ts',
    // the adapters (package.json "exports"): agent-ctx/langgraph, agent-ctx/openai-agents, …
    langgraph: 'src/adapters/langgraph/index.ts',
    'openai-agents': 'src/adapters/openai-agents/index.ts',
    'claude-agent-sdk': 'src/adapters/claude-agent-sdk/index.ts',
  },
  outdir: 'dist',
  splitting: true,
  // cbor-x's optional native accelerator; the pure JS path is used without it. The frameworks the
  // adapters speak to are the user's optional peer dependencies, never bundled: they load from the
  // user's node_modules, and only when an adapter (or `ctx mcp`) is used
  external: ['cbor-extract', 'node-sqlite3-wasm', ...PEERS],
  chunkNames: 'chunks/[name]-[hash]',
  // the module is a chunk of its own (only imported dynamically), so it sits beside the file
  plugins: [prebuiltRanks('./'), nativeBase64],
});

// the binary's first module, CommonJS (bin/ctx requires it; bin/package.json makes bin/ctx CommonJS): no
// ES module loader starts for a hook. It imports dist/main.js as it is (dist/hook.cjs and dist/fast.cjs are read by bundle-load.ts)
const besideCli = { name: 'beside-cli', setup: (b) => b.onResolve({ filter: /^\.\/main\.js$/ }, (a) => ({ path: a.path, external: true })) };
await build({ ...common, format: 'cjs', banner: {}, entryPoints: { cli: 'src/cli/entry.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' }, plugins: [besideCli] });

/**
 * dist/commit.cjs decides whether a commit has work for ctx (src/api/links/commit-hooks.ts): it reads the
 * runtime registry's lists of shell variables, never a runtime's plug-in (dist/hook.cjs loads those), so
 * the registry's imports of the plug-ins are left out of it (~570 KB V8 would otherwise list in its cache).
 */
const noPlugins = {
  name: 'no-runtime-plugins',
  setup(b) {
    b.onResolve({ filter: /^\.\/.*\.js$/ }, (a) => (a.kind === 'dynamic-import' && /[\\/]src[\\/]runtimes[\\/]registry\.ts$/.test(a.importer) && !a.path.endsWith('/shell-env.js') ? { path: a.path, namespace: 'no-runtime-plugins' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'no-runtime-plugins' }, () => ({ contents: "throw new Error('dist/commit.cjs holds no runtime plug-in: dist/hook.cjs loads them');", loader: 'js' }));
  },
};

// `ctx hook …` (src/cli/hook.ts), the git hooks until a commit has work (src/cli/commit-hook.ts), `ctx
// blame FILE` (src/cli/fast.ts) and `ctx grep`, `ctx files` (src/cli/fast-search.ts), each in one
// CommonJS file, dist/hook.cjs, dist/commit.cjs, dist/fast.cjs and dist/search.cjs, that dist/cli.cjs
// compiles with V8's code cache (src/cli/bundle-load.ts):
// their lazy imports inlined; packages only other paths use stay outside (isomorphic-git: the engine
// without a git binary; ajv: state schemas; node-sqlite3-wasm: loads its .wasm beside its .js), loaded from node_modules
for (const [name, entry] of [['hook', 'src/cli/hook.ts'], ['commit', 'src/cli/commit-hook.ts'], ['fast', 'src/cli/fast.ts'], ['search', 'src/cli/fast-search.ts']]) {
  await build({
    ...common,
    format: 'cjs',
    entryPoints: { [name]: entry },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    external: ['cbor-extract', 'isomorphic-git', 'isomorphic-git/*', 'ajv', 'ajv/*', 'node-sqlite3-wasm'],
    // import.meta.url made when first asked for (a lazy require of a package): node's URL code is not loaded for every hook
    define: { ...common.define, 'import.meta.url': '__ctxMeta.url' },
    banner: { js: "const __ctxMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };" },
    plugins: [...(name === 'commit' ? [noPlugins] : []), prebuiltRanks('./chunks/', true), nativeBase64],
  });
  // ASCII only: esbuild escapes what code holds but keeps a comment's `→` or `…`, and one such character
  // makes V8 hold the whole source as a two-byte string, decoded from UTF-8 on every run (~13 M instructions)
  const file = `dist/${name}.cjs`;
  writeFileSync(file, readFileSync(file, 'utf8').replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
// dist/hook.cache, dist/fast.cache and dist/search.cache: V8's code for every function hooks of each runtime, a blame and a grep and files ran,
// then dist/hook.<runtime>.cache and hook.checkpoint.cache, each made by a process that ran only that, so smaller (build-hook-cache.mjs);
// its stdin, a pipe as a runtime's: `{}`, the hook input it reads as every hook does
const cache = spawnSync(process.execPath, ['build-hook-cache.mjs'], { input: '{}', stdio: ['pipe', 'ignore', 'inherit'] });
if (cache.status !== 0) throw new Error('build-hook-cache.mjs failed');

// ctx serve's web view: one browser bundle and its two static files in dist/web/ (shipped with dist)
await build({ entryPoints: ['src/web/app.ts'], outfile: 'dist/web/app.js', bundle: true, format: 'esm', platform: 'browser', target: 'chrome110', minify: true, sourcemap: true, logLevel: 'warning' });
copyFileSync('src/web/index.html', 'dist/web/index.html');
// one stylesheet from src/web/css/*.css in name order (base.css first): each part of the view keeps its own
writeFileSync('dist/web/style.css', readdirSync('src/web/css').filter((f) => f.endsWith('.css')).sort((a, b) => (a === 'base.css' ? -1 : b === 'base.css' ? 1 : a.localeCompare(b))).map((f) => readFileSync(`src/web/css/${f}`, 'utf8')).join('\n'));

if ((await types) !== 0) throw new Error('tsc -p tsconfig.types.json failed: no dist/types');
