import { push } from '../api/sync/sync.js';
import { printSyncReport, syncFailure, syncProgress } from '../output/ref-status.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'push',
  summary: 'send branches, tags and annotations to a remote, fast-forward only',
  args: [{ name: 'remote', description: 'remote name (default: the only one, else origin)', values: 'remote' }],
  options: [{ flags: '--allow-secrets', description: 'push even when the secret scan finds something' }],
  examples: ['ctx push', 'ctx push origin --json'],
  async run(io, [remote]: [string | undefined], flags: { allowSecrets?: boolean }) {
    const p = syncProgress(io, 'push');
    return io.withRepo(false, (repo) => push(repo, remote, { env: io.env, ...p, allowSecrets: flags.allowSecrets })).finally(p.done);
  },
  print: (io, report) => printSyncReport(io, report, 'To'),
  failure: (report) => syncFailure('push', report),
});
