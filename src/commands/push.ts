import { push } from '../api/sync/push.js';
import { printSyncReport, syncFailure, syncProgress } from '../output/ref-status.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'push',
  summary: 'send sessions, saves and annotations to a remote, fast-forward only',
  description:
    "Sends local branches (the sessions), saved-session tags and annotations, fast-forward only. Scratch forks, the fork/<hex> branches `ctx fork ID` makes when given no name, stay local unless --all (the line says how many); name a fork to share it. Prints one line (counts by kind of ref and status) unless -v.",
  args: [{ name: 'remote', description: 'remote name (default: the only one, else origin)', values: 'remote' }],
  options: [
    { flags: '--all', description: 'scratch forks (fork/*) too' },
    { flags: '--allow-secrets', description: 'push even when the secret scan finds something' },
    { flags: '-v, --verbose', description: 'one line per ref (the table, or TAB-separated lines), as fetch prints' },
  ],
  examples: ['ctx push', 'ctx push --all', 'ctx push -v', 'ctx push origin --json'],
  async run(io, [remote]: [string | undefined], flags: { all?: boolean; allowSecrets?: boolean; verbose?: boolean }) {
    const p = syncProgress(io, 'push');
    return io.withRepo(false, (repo) => push(repo, remote, { env: io.env, ...p, allowSecrets: flags.allowSecrets, all: flags.all })).finally(p.done);
  },
  print: (io, report, flags) => printSyncReport(io, report, 'To', flags.verbose === true),
  failure: (report) => syncFailure('push', report),
});
