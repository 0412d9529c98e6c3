// A command run without commander or the command table (entry.ts hands it over when fastArgs accepts
// the arguments): its module's run, print and failure, as program.ts runs them, errors as main.ts
// reports them. Shared by the fast bundles (fast.ts: blame; fast-search.ts: grep and files).
import type { AnyCommand } from '../commands/command.js';
import { Cli } from './context.js';
import type { FastArgs } from './fast-args.js';
import { quietOnEpipe, report } from './report.js';

export async function runCommand(load: () => Promise<{ default: AnyCommand }>, a: FastArgs): Promise<number> {
  quietOnEpipe();
  try {
    const decl = (await load()).default;
    // commander's optsWithGlobals: the global options (--color defaults to auto), then the command's own
    const io = new Cli({ color: 'auto', ...a.flags, ...a.opts });
    const data = await decl.run(io, a.args, a.opts);
    await decl.print(io, data, a.opts);
    const failed = decl.failure?.(data, a.opts);
    if (failed) throw failed;
    return 0;
  } catch (e) {
    return report(e, a.flags.json === true);
  }
}
