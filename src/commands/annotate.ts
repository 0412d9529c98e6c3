import { annotate } from '../api/branch-ops.js';
import { fullId, shortId } from '../core/ids.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, id: string, flags: { summary?: string; label?: string[]; principal?: string }) {
  const done = await cli.withRepo(false, (repo) => annotate(repo, id, { summary: flags.summary, labels: flags.label, principal: flags.principal }));
  if (cli.flags.json) return cli.json({ ...done.record, id: fullId(done.oid) });
  cli.out(`${shortId(done.oid)}\n`);
}
