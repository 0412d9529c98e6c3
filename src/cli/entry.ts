// The `ctx` binary's first module (dist/cli.js, bundled alone): `--version` answered here, a hook and
// the plain `checkpoint -b B --format F FILE` handed to dist/hook.cjs (one file: the capture code and
// nothing else, loaded with V8's code cache), every other command to the whole CLI (main.ts). Module loading is most of a hook's cost, so this
// file imports nothing else.
import { fileURLToPath } from 'node:url';
import { VERSION } from '../core/version.js';
import { checkpointArgs, hookArgs } from './hook-args.js';
import { loadHook } from './hook-load.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const hook = hookArgs(argv);
  const cp = hook ? null : checkpointArgs(argv);
  const dist = () => loadHook(fileURLToPath(new URL('.', import.meta.url))).hook;
  if (hook) process.exitCode = await dist().runHookArgs(hook);
  else if (cp) process.exitCode = await dist().runCheckpointArgs(cp);
  else await import('./main.js');
}
