import { branchList, brokenRefWarning, type BranchInfo } from '../api/read/read.js';
import { displaySummary } from '../core/summary.js';
import type { IntegrityError } from '../errors/index.js';
import { UsageError } from '../errors/index.js';
import { shortId } from '../core/ids.js';
import { branchDeletedJson, branchJson } from '../output/records.js';
import { oneLine, plainWidth, shortTime, table, tsvLine, visible } from '../output/style.js';
import { defineCommand } from './command.js';
import { unknownName } from '../core/nearest.js';

type Result = { deleted: { branch: string; oid: string | null; damaged?: string } } | { list: BranchInfo[]; damaged: IntegrityError[] };

export default defineCommand({
  name: 'branch',
  summary: 'list chains and their tips, or delete one',
  args: [
    { name: 'action', description: 'list (default) or delete', values: ['list', 'delete'] },
    { name: 'name', description: 'the branch to delete', values: 'branch' },
  ],
  options: [
    { flags: '-r, --remotes', description: 'list the remote-tracking branches (REMOTE/NAME) that fetch, pull and clone write' },
    { flags: '-a, --all', description: 'list local branches, then remote-tracking ones as remotes/REMOTE/NAME' },
  ],
  examples: ['ctx branch', 'ctx branch -r', 'ctx branch -a --json', 'ctx branch delete review/finding-1', 'ctx branch --json'],
  async run(io, [action, name]: [string | undefined, string | undefined], flags: { remotes?: boolean; all?: boolean }): Promise<Result> {
    if (action === 'delete') {
      if (!name) throw new UsageError('branch delete needs a NAME');
      // the write side (and the secret rules it carries) only for a delete: a listing reads
      const { deleteBranch } = await import('../api/write/branch-ops.js');
      return { deleted: await io.withRepo(false, async (repo) => deleteBranch(repo, name)) };
    }
    if (action !== undefined && action !== 'list') throw new UsageError(unknownName('action', action, ['list', 'delete'], `unknown branch action '${action}' (list, delete)`, { closed: true }));
    // a damaged branch does not hide the others: they are listed, it is warned about (ctx verify fails on it)
    return io.withRepo(false, async (repo) => {
      const local = flags.remotes ? { branches: [], damaged: [] } : await branchList(repo);
      if (!flags.remotes && !flags.all) return { list: local.branches, damaged: local.damaged };
      // as git: -r names them origin/x, -a remotes/origin/x after the local ones
      const remote = await branchList(repo, true);
      const tracking = flags.all ? remote.branches.map((b) => ({ ...b, name: `remotes/${b.name}` })) : remote.branches;
      return { list: [...local.branches, ...tracking], damaged: [...local.damaged, ...remote.damaged] };
    });
  },
  print(io, r) {
    if ('deleted' in r) {
      const gone = r.deleted;
      if (io.flags.json) return io.json(branchDeletedJson(gone.branch, gone.oid, gone.damaged));
      if (gone.oid === null) return io.out(`Deleted damaged branch ${visible(gone.branch)} (it ${visible(gone.damaged?.replace(/^holds/, 'held') ?? '')})\n`);
      return io.out(`Deleted branch ${visible(gone.branch)} (was ${shortId(gone.oid)})\n`);
    }
    for (const d of r.damaged) io.note(`ctx: warning: ${brokenRefWarning(d)}`);
    if (io.flags.json) return r.list.forEach((b) => io.json(branchJson(b)));
    const c = io.chalk;
    if (!io.tty || r.list.length === 0) return io.out(r.list.map((b) => tsvLine([c.green(visible(b.name)), c.yellow(shortId(b.id.slice(4)))])).join(''));
    const rows = r.list.map((b) => [c.green(visible(b.name)), c.yellow(shortId(b.id.slice(4))), visible(shortTime(b.meta.created_at)), oneLine(displaySummary(b.meta.summary, b.meta), 60)]);
    io.out(table([['BRANCH', 'TIP', 'TIME', 'SUMMARY'].map((h) => c.bold(h)), ...rows], plainWidth));
  },
});
