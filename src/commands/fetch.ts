import { fetch } from '../api/sync/sync.js';
import { printSyncReport, syncFailure, syncProgress } from '../output/ref-status.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'fetch',
  summary: 'bring a remote into refs/remotes/REMOTE/*, merge its annotations',
  args: [{ name: 'remote', description: 'remote name (default: the only one, else origin)', values: 'remote' }],
  options: [],
  examples: ['ctx fetch', 'ctx fetch origin && ctx log --all --graph'],
  async run(io, [remote]: [string | undefined]) {
    const p = syncProgress(io, 'fetch');
    return io.withRepo(false, (repo) => fetch(repo, remote, { env: io.env, ...p })).finally(p.done);
  },
  print: (io, report) => printSyncReport(io, report, 'From'),
  failure: (report) => syncFailure('fetch', report),
});
