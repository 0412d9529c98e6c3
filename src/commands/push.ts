import { push } from '../api/sync.js';
import { RemoteError } from '../errors/index.js';
import { printSyncReport, transferProgress } from '../output/ref-status.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, remote: string | undefined, flags: { allowSecrets?: boolean }) {
  const bar = transferProgress('push');
  const report = await cli
    .withRepo(false, (repo) => push(repo, remote, { env: cli.env, progress: Boolean(process.stderr.isTTY), onProgress: bar.update, allowSecrets: flags.allowSecrets }))
    .finally(bar.done);
  printSyncReport(cli, report, 'To');
  const failed = report.refs.filter((r) => !r.ok).length;
  if (failed) throw new RemoteError(`push ${report.remote}: ${failed} of ${report.refs.length} refs failed`);
}
