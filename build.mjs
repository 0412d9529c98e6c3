// Bundles the CLI and the library into dist/; commands become lazily loaded chunks.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
rmSync('dist', { recursive: true, force: true });

// cl100k_base's ranks, serialized once here (src/core/cl100k-ranks.ts run at build time) into
// dist/chunks/cl100k_base.ranks; in dist/ that module becomes one read of this file, so a process
// that counts tokens reads 2 MB instead of parsing gpt-tokenizer's 100,000-entry list and building
// its maps (~80 ms).
const ranksModule = await build({ entryPoints: ['src/core/cl100k-ranks.ts'], bundle: true, write: false, format: 'esm', platform: 'node', logLevel: 'warning' });
const { rankTable } = await import(`data:text/javascript;base64,${Buffer.from(ranksModule.outputFiles[0].contents).toString('base64')}`);
mkdirSync('dist/chunks', { recursive: true });
writeFileSync('dist/chunks/cl100k_base.ranks', rankTable());
const prebuiltRanks = {
  name: 'prebuilt-ranks',
  setup(b) {
    b.onResolve({ filter: /^\.\/cl100k-ranks\.js$/ }, () => ({ path: 'cl100k-ranks', namespace: 'prebuilt-ranks' }));
    b.onLoad({ filter: /.*/, namespace: 'prebuilt-ranks' }, () => ({
      // the module is a chunk of its own (only imported dynamically), so it sits beside the file
      contents: "import { readFileSync } from 'node:fs';\nexport function rankTable() { return readFileSync(new URL('./cl100k_base.ranks', import.meta.url)); }\n",
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: { cli: 'src/cli/main.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // cbor-x's optional native accelerator; the pure JS path is used without it
  external: ['cbor-extract'],
  // jsonc-parser's main (UMD) requires its parts at run time, which a bundle cannot: take its ESM build
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  define: { __CTX_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: "import { createRequire as __ctxRequire } from 'node:module'; const require = __ctxRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [prebuiltRanks],
  logLevel: 'warning',
});

// ctx serve's web view: one browser bundle and its two static files in dist/web/ (shipped with dist)
await build({ entryPoints: ['src/web/app.ts'], outfile: 'dist/web/app.js', bundle: true, format: 'esm', platform: 'browser', target: 'chrome110', minify: true, sourcemap: true, logLevel: 'warning' });
for (const f of ['index.html', 'style.css']) copyFileSync(`src/web/${f}`, `dist/web/${f}`);
