// The `ctx` binary's first module (dist/cli.js, bundled alone): `--version` answered here, a hook
// handed to dist/hook.js (one file: the capture code and nothing else), `ctx blame FILE` to
// dist/fast.js (the command without commander, one file too), every other command to the whole CLI (main.ts).
// Module loading is most of a hook's cost, so this file imports nothing else.
import { VERSION } from '../core/version.js';
import { fastArgs } from './fast-args.js';
import { hookArgs } from './hook-args.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const hook = hookArgs(argv);
  if (hook) {
    const { runHookArgs } = await import('./hook.js');
    process.exitCode = await runHookArgs(hook);
  } else {
    const fast = fastArgs(argv);
    if (fast) {
      const { runFast } = await import('./fast.js');
      process.exitCode = await runFast(fast);
    } else await import('./main.js');
  }
}
