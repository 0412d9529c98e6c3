import { fork } from '../api/branch-ops.js';
import { fullId, shortId } from '../core/ids.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, id: string, name: string | undefined) {
  const made = await cli.withRepo(false, (repo) => fork(repo, id, name));
  if (cli.flags.json) return cli.json({ v: 1, branch: made.branch, id: fullId(made.oid) });
  cli.out(`${made.branch}\t${shortId(made.oid)}\n`);
}
