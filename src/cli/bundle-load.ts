// dist/hook.cjs (the capture code in one CommonJS file) compiled through vm.Script with V8's code
// cache, dist/hook.cache, made at build time by running hooks of every runtime (build-hook-cache.mjs):
// a hook then neither parses the 600 KB bundle nor compiles the functions it runs (docs/performance.md).
// node 20 has no code cache for ES modules; a cache another node (or V8 flag set) made is rejected by
// V8, and the file is compiled as without one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import type { runCheckpointArgs, runHookArgs } from './hook.js';

export interface HookModule {
  runHookArgs: typeof runHookArgs;
  runCheckpointArgs: typeof runCheckpointArgs;
}

/** The hook bundle in `dir` (dist/), run; `script` makes a new cache (createCachedData) after a run. */
export function loadHook(dir: string, useCache = true): { hook: HookModule; script: Script } {
  const file = join(dir, 'hook.cjs');
  let cachedData: Buffer | undefined;
  try {
    if (useCache) cachedData = readFileSync(join(dir, 'hook.cache'));
  } catch {}
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, { filename: file, cachedData });
  const module = { exports: {} as HookModule };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dir);
  return { hook: module.exports, script };
}
