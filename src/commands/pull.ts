import { pull } from '../api/sync/sync.js';
import { printSyncReport, syncFailure, syncProgress } from '../output/ref-status.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'pull',
  summary: 'fetch, then fast-forward local branches that did not diverge',
  description:
    "Fetches REMOTE, then fast-forwards each local branch that REMOTE also has (as git's tracking branches), or, given BRANCH names, creates or fast-forwards those. A remote's other branches stay remote-tracking (REMOTE/NAME): a pull never makes one local branch per remote branch. A branch that diverged keeps both tips; one whose remote tip is another tool's commit (no meta.json) is refused.",
  args: [
    { name: 'remote', description: 'remote name (default: the only one, else origin)', values: 'remote' },
    { name: 'branch...', description: "branches to create or fast-forward from REMOTE's (default: the local branches REMOTE also has)", values: 'branch' },
  ],
  options: [{ flags: '-v, --verbose', description: 'one line per ref (the table, or TAB-separated lines), as fetch prints' }],
  examples: ['ctx pull', 'ctx pull -v', 'ctx pull origin claude/s-1', 'ctx pull origin --json'],
  async run(io, [remote, branches]: [string | undefined, string[] | undefined], _flags: { verbose?: boolean }) {
    const p = syncProgress(io, 'pull');
    return io.withRepo(false, (repo) => pull(repo, remote, { env: io.env, ...p, ...(branches?.length ? { branches } : {}) })).finally(p.done);
  },
  print: (io, report, flags) => printSyncReport(io, report, 'From', flags.verbose === true),
  failure: (report) => syncFailure('pull', report),
});
