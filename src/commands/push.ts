import { push } from '../api/sync/sync.js';
import { printSyncReport, syncFailure, syncProgress } from '../output/ref-status.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'push',
  summary: 'send branches, tags and annotations to a remote, fast-forward only',
  description: 'Sends local branches, saved-session tags and annotations, fast-forward only. Prints one line (counts by kind of ref and status) unless -v.',
  args: [{ name: 'remote', description: 'remote name (default: the only one, else origin)', values: 'remote' }],
  options: [{ flags: '--allow-secrets', description: 'push even when the secret scan finds something' }, { flags: '-v, --verbose', description: 'one line per ref (the table, or TAB-separated lines), as fetch prints' }],
  examples: ['ctx push', 'ctx push -v', 'ctx push origin --json'],
  async run(io, [remote]: [string | undefined], flags: { allowSecrets?: boolean; verbose?: boolean }) {
    const p = syncProgress(io, 'push');
    return io.withRepo(false, (repo) => push(repo, remote, { env: io.env, ...p, allowSecrets: flags.allowSecrets })).finally(p.done);
  },
  print: (io, report, flags) => printSyncReport(io, report, 'To', flags.verbose === true),
  failure: (report) => syncFailure('push', report),
});
