// Bundles the CLI and the library into dist/; commands become lazily loaded chunks.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
rmSync('dist', { recursive: true, force: true });
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
  define: { __CTX_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: "import { createRequire as __ctxRequire } from 'node:module'; const require = __ctxRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
