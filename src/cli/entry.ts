// The `ctx` binary's first module (dist/cli.cjs, bundled alone, CommonJS: node starts no ES module
// loader for it, so a hook's start costs what `node -e 0` does): `--version` answered here, a hook and
// the plain `checkpoint -b B --format F FILE` handed to dist/hook.cjs (one file: the capture code and
// nothing else), a git hook to dist/commit.cjs (which loads dist/hook.cjs when the commit has work), `ctx blame FILE` to dist/fast.cjs and `ctx grep`, `ctx files` to dist/search.cjs (the
// commands without commander, one file each), all
// loaded with V8's code cache (bundle-load.ts), every other command to the whole CLI (main.ts). Module
// loading is most of a hook's cost, so this file imports nothing else.
import { VERSION } from '../core/version.js';
import { fastArgs } from './fast-args.js';
import { checkpointArgs, hookArgs } from './hook-args.js';
import { loadBundle } from './bundle-load.js';

async function start(argv: string[]): Promise<void> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const hook = hookArgs(argv);
  const cp = hook ? null : checkpointArgs(argv);
  // dist/, where this file is; the cache made by running only this runtime's hook (or checkpoint) first
  const dist = (only: string | undefined) => loadBundle(__dirname, 'hook', only !== undefined && /^[a-z][a-z0-9-]{0,39}$/.test(only) ? [`hook.${only}`, 'hook'] : ['hook']).exports;
  const fast = hook || cp ? null : fastArgs(argv);
  // a git hook: dist/commit.cjs decides whether the commit has work, dist/hook.cjs loaded only to do it
  if (hook?.runtime === 'git' && hook.rest) process.exitCode = await loadBundle(__dirname, 'commit').exports.runCommitHook({ ...hook, rest: hook.rest }, () => dist('git').commitWorker);
  else if (hook) process.exitCode = await dist(hook.runtime).runHookArgs(hook);
  else if (cp) process.exitCode = await dist('checkpoint').runCheckpointArgs(cp);
  else if (fast?.command === 'blame') process.exitCode = await loadBundle(__dirname, 'fast').exports.runFast(fast);
  else if (fast) process.exitCode = await loadBundle(__dirname, 'search').exports.runSearch(fast);
  else await import('./main.js');
}

void start(process.argv.slice(2));
