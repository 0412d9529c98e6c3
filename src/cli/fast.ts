// `ctx blame FILE` without commander or the command table (dist/fast.cjs): ctx blame reads thousands
// of lines, and the CLI's start-up was a third of its cost.
import { setFlagsFromString } from 'node:v8';
import type { FastArgs } from './fast-args.js';
import { runCommand } from './fast-run.js';

/** V8's optimizing compiler, off for the rest of this short process: compiling the loops over a file's lines cost more than it saved (~30 ms of a 2,000-line blame). Set after the bundle's code cache was read, which a changed flag would make V8 reject. */
export const NO_OPT = '--no-opt';

export function runFast(a: FastArgs): Promise<number> {
  setFlagsFromString(NO_OPT);
  return runCommand(() => import('../commands/blame.js'), a);
}
