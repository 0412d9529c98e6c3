// The `ctx` binary's first module (dist/cli.js, bundled alone): `--version` answered here, a hook
// handed to dist/hook.cjs (one file: the capture code and nothing else, loaded with V8's code cache),
// every other command to the whole CLI (main.ts). Module loading is most of a hook's cost, so this
// file imports nothing else.
import { fileURLToPath } from 'node:url';
import { VERSION } from '../core/version.js';
import { hookArgs } from './hook-args.js';
import { loadHook } from './hook-load.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const hook = hookArgs(argv);
  if (hook) process.exitCode = await loadHook(fileURLToPath(new URL('.', import.meta.url))).hook.runHookArgs(hook);
  else await import('./main.js');
}
