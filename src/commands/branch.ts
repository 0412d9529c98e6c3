import { deleteBranch } from '../api/branch-ops.js';
import { branches } from '../api/read.js';
import { UsageError } from '../errors/index.js';
import { shortId } from '../core/ids.js';
import { branchJson } from '../output/records.js';
import { oneLine, plainWidth, shortTime, table } from '../output/style.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, action: string | undefined, name: string | undefined) {
  if (action === 'delete') {
    if (!name) throw new UsageError('branch delete needs a NAME');
    const gone = await cli.withRepo(false, async (repo) => deleteBranch(repo, name));
    if (cli.flags.json) return cli.json({ v: 1, deleted: gone.branch, id: `ctx-${gone.oid}` });
    return cli.out(`Deleted branch ${gone.branch} (was ${shortId(gone.oid)})\n`);
  }
  if (action !== undefined && action !== 'list') throw new UsageError(`unknown branch action '${action}' (list, delete)`);
  const list = await cli.withRepo(false, (repo) => branches(repo));
  if (cli.flags.json) return list.forEach((b) => cli.json(branchJson(b)));
  if (!cli.tty) return cli.out(list.map((b) => `${b.name}\t${shortId(b.id.slice(4))}\n`).join(''));
  const c = cli.chalk;
  cli.out(table(list.map((b) => [c.green(b.name), c.yellow(shortId(b.id.slice(4))), shortTime(b.meta.created_at), oneLine(b.meta.summary, 60)]), plainWidth));
}
