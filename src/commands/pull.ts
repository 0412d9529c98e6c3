import { pull } from '../api/sync.js';
import { printSyncReport, syncFailure, syncProgress } from '../output/ref-status.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'pull',
  summary: 'fetch, then fast-forward local branches that did not diverge',
  args: [{ name: 'remote', description: 'remote name (default: the only one, else origin)', values: 'remote' }],
  options: [],
  examples: ['ctx pull', 'ctx pull origin --json'],
  async run(io, [remote]: [string | undefined]) {
    const p = syncProgress(io, 'pull');
    return io.withRepo(false, (repo) => pull(repo, remote, { env: io.env, ...p })).finally(p.done);
  },
  print: (io, report) => printSyncReport(io, report, 'From'),
  failure: (report) => syncFailure('pull', report),
});
