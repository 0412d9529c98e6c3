import { gc, type GcReport } from '../api/maintain/gc.js';
import { shortId } from '../core/ids.js';
import { gcBranchJson, gcJson } from '../output/records.js';
import { plainWidth, shortTime, table, tsvLine, visible } from '../output/style.js';
import type { ObjectStats } from '../api/maintain/gc.js';
import { defineCommand } from './command.js';

const size = (n: number) => (n < 1024 * 1024 ? `${Math.round(n / 1024)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`);
const stats = (s: ObjectStats) => `${s.loose_objects} loose, ${s.packs} ${s.packs === 1 ? 'pack' : 'packs'}, ${size(s.disk_bytes)}`;

export default defineCommand({
  name: 'gc',
  summary: 'pack objects, prune unreachable ones, and with --prune-expired delete branches past their retention',
  description:
    'Runs git gc on the store: loose objects are packed, unreachable ones older than the grace period (--prune, default git\'s 2 weeks) are removed. ' +
    'Everything reachable from a branch, tag, remote-tracking ref, the annotations or a reflog stays. ' +
    'With --prune-expired, branches matching a ctx.<pattern>.retention rule whose tip is older than the rule are deleted first, ' +
    'except a branch that alone reaches a pinned commit. Needs git on PATH.',
  args: [],
  options: [
    { flags: '--prune-expired', description: 'delete branches past their ctx.<pattern>.retention first' },
    { flags: '--dry-run', description: 'show what would be deleted; change nothing' },
    { flags: '--prune <date>', description: "unreachable objects older than this go (git's date: now, 2.weeks.ago; default git's gc.pruneExpire)" },
  ],
  examples: ['ctx gc', 'ctx gc --prune-expired --dry-run', 'ctx gc --prune-expired --json'],
  async run(io, _args: [], flags: { pruneExpired?: boolean; dryRun?: boolean; prune?: string }): Promise<GcReport> {
    return io.withRepo(false, (repo) => gc(repo, { pruneExpired: flags.pruneExpired, dryRun: flags.dryRun, prune: flags.prune }));
  },
  print(io, r) {
    if (io.flags.json) {
      r.branches.forEach((b) => io.json(gcBranchJson(b)));
      return io.json(gcJson(r));
    }
    const c = io.chalk;
    if (io.tty && r.branches.length) {
      const rows = r.branches.map((b) => [c.green(visible(b.branch)), c.yellow(shortId(b.oid)), visible(shortTime(b.created_at)), visible(`${b.pattern}=${b.keep}`), b.action]);
      io.out(table([['BRANCH', 'TIP', 'CREATED', 'RETENTION', 'ACTION'].map((h) => c.bold(h)), ...rows], plainWidth));
    } else for (const b of r.branches) io.out(tsvLine([b.action, b.branch, shortId(b.oid), b.created_at, `${b.pattern}=${b.keep}`]));
    if (r.after === null) return io.note(`ctx: dry run: nothing changed (objects: ${stats(r.before)})`);
    const derived = r.derived_removed ? `; ${r.derived_removed} derived ${r.derived_removed === 1 ? 'file' : 'files'} removed` : '';
    io.out(`objects: ${stats(r.before)} -> ${stats(r.after)}${derived}\n`);
  },
});
