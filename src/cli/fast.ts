// A command run without commander or the command table (entry.ts hands it over when fastArgs
// accepts the arguments): its module's run and print, as program.ts runs them, errors as main.ts
// reports them. `ctx blame` reads thousands of lines; the CLI's start-up was a third of its cost.
import { setFlagsFromString } from 'node:v8';
import { Cli } from './context.js';
import type { FastArgs } from './fast-args.js';
import { quietOnEpipe, report } from './report.js';

/** V8's optimizing compiler, off for the rest of this short process: compiling the loops over a file's lines cost more than it saved (~30 ms of a 2,000-line blame). Set after the bundle's code cache was read, which a changed flag would make V8 reject. */
export const NO_OPT = '--no-opt';

export async function runFast(a: FastArgs): Promise<number> {
  setFlagsFromString(NO_OPT);
  quietOnEpipe();
  try {
    const decl = (await import('../commands/blame.js')).default;
    const io = new Cli({ color: 'auto', ...a.flags });
    const data = await decl.run(io, a.args as [string], a.opts);
    await decl.print(io, data, a.opts);
    return 0;
  } catch (e) {
    return report(e, a.flags.json === true);
  }
}
