// `ctx grep` and `ctx files` without commander or the command table (dist/search.cjs): a warm search
// through the index costs little more than starting node and SQLite, and the whole CLI's ES modules
// were a third of it (docs/search.md).
import type { FastArgs } from './fast-args.js';
import { runCommand } from './fast-run.js';

export const runSearch = (a: FastArgs): Promise<number> =>
  runCommand(a.command === 'grep' ? () => import('../commands/grep.js') : () => import('../commands/files.js'), a);
