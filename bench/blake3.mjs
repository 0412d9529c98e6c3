// Benchmark 4: which BLAKE3 library. hash-wasm (ctx's dependency) against blake3-wasm 2.1.5
// (a devDependency, for this comparison only), on 2 KB deltas and on the 2.3 MB corpus file.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CORPUS_FILE, ROOT, fmtInt, median, prng, progress, table } from './lib.mjs';

const require = createRequire(import.meta.url);

export async function benchBlake3({ file = CORPUS_FILE } = {}) {
  const hw = await import('hash-wasm');
  const b3 = require('blake3-wasm');
  const versions = {
    'hash-wasm': JSON.parse(readFileSync(join(ROOT, 'node_modules/hash-wasm/package.json'), 'utf8')).version,
    'blake3-wasm': JSON.parse(readFileSync(join(ROOT, 'node_modules/blake3-wasm/package.json'), 'utf8')).version,
  };
  const reused = await hw.createBLAKE3();
  const libs = {
    // what ctx does (src/core/blake3.ts): one hasher, init/update/digest per artifact
    [`hash-wasm ${versions['hash-wasm']}, reused hasher (ctx's way)`]: (buf) => {
      reused.init();
      reused.update(buf);
      return reused.digest('hex');
    },
    [`hash-wasm ${versions['hash-wasm']}, \`blake3()\` one-shot`]: (buf) => hw.blake3(buf),
    [`blake3-wasm ${versions['blake3-wasm']}, \`hash()\` one-shot`]: (buf) => b3.hash(buf).toString('hex'),
  };

  const rand = prng(7);
  const small = Buffer.alloc(2048);
  for (let i = 0; i < small.length; i++) small[i] = Math.floor(rand() * 256);
  const big = readFileSync(file);
  const inputs = [
    ['2 KB', small, 5000],
    [`${(big.length / 1e6).toFixed(1)} MB corpus file`, big, 30],
  ];

  // same digest from every library, on both inputs
  const digests = {};
  for (const [label, buf] of inputs) {
    const got = await Promise.all(Object.values(libs).map((f) => f(buf)));
    if (new Set(got).size !== 1) throw new Error(`blake3: digests differ on ${label}: ${got.join(' ')}`);
    digests[label] = got[0];
  }

  const BATCHES = 11; // the first is a warm-up
  const results = {};
  for (const [name, f] of Object.entries(libs)) {
    progress(`blake3: ${name}`);
    results[name] = [];
    for (const [, buf, ops] of inputs) {
      const per = [];
      for (let b = 0; b < BATCHES; b++) {
        const t = performance.now();
        for (let i = 0; i < ops; i++) {
          const r = f(buf);
          if (typeof r !== 'string') await r; // only hash-wasm's one-shot is async
        }
        if (b > 0) per.push((performance.now() - t) / ops);
      }
      results[name].push(median(per)); // ms per op
    }
  }
  const rows = Object.entries(results).map(([name, [s, l]]) => [name, (s * 1000).toFixed(2), fmtInt(Math.round(small.length / 1e6 / (s / 1000))), fmtInt(Math.round(big.length / 1e6 / (l / 1000)))]);
  return {
    markdown: [
      '## 4. BLAKE3 library\n',
      `In-process, each library hashing the same buffer repeatedly: 2 KB of random bytes (${fmtInt(inputs[0][2])} ops per batch) ` +
        `and the ${fmtInt(big.length)}-byte corpus transcript (${inputs[1][2]} ops per batch); ${BATCHES} batches, the first discarded, ` +
        `median per op. All three give the same digest on both inputs (2 KB: \`${digests['2 KB'].slice(0, 16)}…\`, corpus: ` +
        `\`${digests[inputs[1][0]].slice(0, 16)}…\`). blake3-wasm 3.0.0 cannot be installed: it depends on ` +
        '`@c4312/blake3-internal@2.1.7`, which is not in the registry (`npm error notarget No matching version found for ' +
        '@c4312/blake3-internal@2.1.7`), so 2.1.5 (its WebAssembly build for Node) is the one compared; it is a devDependency ' +
        'for this benchmark only.\n',
      table(['library', '2 KB µs/op', '2 KB MB/s', 'corpus MB/s'], rows),
      '',
    ].join('\n'),
  };
}
