// dist/hook.cjs (`ctx hook …`, the capture code), dist/commit.cjs (`ctx hook git …` until it has work),
// dist/fast.cjs (`ctx blame FILE`) and dist/search.cjs (`ctx grep`, `ctx files`), each one CommonJS file
// compiled through vm.Script with V8's code cache (dist/hook.cache, dist/commit.cache, dist/fast.cache,
// dist/search.cache), made at build
// time by running them (build-hook-cache.mjs): the process then neither parses the bundle nor compiles
// the functions it runs (docs/performance.md). A hook of one runtime, or a checkpoint, first tries a cache
// of its own (dist/hook.<runtime>.cache, hook.checkpoint.cache): V8 deserializes all of a cache, and one
// runtime's is two thirds of the whole. node 20 has no code cache for ES modules; a cache another node
// (or V8 flag set) made is rejected by V8, and the file is compiled as without one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import type { runCommitHook } from './commit-hook.js';
import type { runFast } from './fast.js';
import type { runSearch } from './fast-search.js';
import type { commitWorker, runCheckpointArgs, runHookArgs } from './hook.js';

export interface Bundles {
  hook: { runHookArgs: typeof runHookArgs; runCheckpointArgs: typeof runCheckpointArgs; commitWorker: typeof commitWorker };
  commit: { runCommitHook: typeof runCommitHook };
  fast: { runFast: typeof runFast };
  search: { runSearch: typeof runSearch };
}

/**
 * dist/`name`.cjs in `dir` (dist/), run with the first of dist/`caches[i]`.cache that reads (none: compiled
 * without); `script` makes a new cache (createCachedData) after a run.
 */
export function loadBundle<N extends keyof Bundles>(dir: string, name: N, caches: string[] = [name]): { exports: Bundles[N]; script: Script } {
  const file = join(dir, `${name}.cjs`);
  let cachedData: Buffer | undefined;
  for (const cache of caches) {
    try {
      cachedData = readFileSync(join(dir, `${cache}.cache`));
      break;
    } catch {}
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, { filename: file, cachedData });
  const module = { exports: {} as Bundles[N] };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dir);
  return { exports: module.exports, script };
}
