import { annotate } from '../api/branch-ops.js';
import { fullId, shortId } from '../core/ids.js';
import { UsageError } from '../errors/index.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, id: string, flags: { summary?: string; label?: string[]; pin?: boolean; unpin?: boolean; principal?: string }) {
  if (flags.pin && flags.unpin) throw new UsageError('give --pin or --unpin, not both');
  const pinned = flags.pin ? true : flags.unpin ? false : undefined;
  const done = await cli.withRepo(false, (repo) => annotate(repo, id, { summary: flags.summary, labels: flags.label, pinned, principal: flags.principal }));
  if (cli.flags.json) return cli.json({ ...done.record, id: fullId(done.oid) });
  cli.out(`${shortId(done.oid)}\n`);
}
