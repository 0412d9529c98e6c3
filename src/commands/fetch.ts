import { fetch } from '../api/sync.js';
import { RemoteError } from '../errors/index.js';
import { printSyncReport, transferProgress } from '../output/ref-status.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, remote: string | undefined, _flags: Record<string, never>) {
  const bar = transferProgress('fetch');
  const report = await cli
    .withRepo(false, (repo) => fetch(repo, remote, { env: cli.env, progress: Boolean(process.stderr.isTTY), onProgress: bar.update }))
    .finally(bar.done);
  printSyncReport(cli, report, 'From');
  const failed = report.refs.filter((r) => !r.ok).length;
  if (failed) throw new RemoteError(`fetch ${report.remote}: ${failed} of ${report.refs.length} refs failed`);
}
