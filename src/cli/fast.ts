// `ctx blame FILE` without commander or the command table (dist/fast.cjs): ctx blame reads thousands
// of lines, and the CLI's start-up was a third of its cost.
import type { FastArgs } from './fast-args.js';
import { runCommand } from './fast-run.js';

export const runFast = (a: FastArgs): Promise<number> => runCommand(() => import('../commands/blame.js'), a);
