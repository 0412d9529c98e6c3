import { log } from '../api/read.js';
import { UsageError } from '../errors/index.js';
import { shortId } from '../core/ids.js';
import { logJson } from '../output/records.js';
import { oneLine, plainWidth, shortTime, table } from '../output/style.js';
import { renderGraph } from '../output/graph.js';
import type { Cli } from '../cli/context.js';
import type { CommitRecord } from '../api/read.js';

export async function run(cli: Cli, id: string | undefined, flags: { n?: string; all?: boolean; graph?: boolean }) {
  const limit = flags.n === undefined ? undefined : Number(flags.n);
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) throw new UsageError(`-n takes a whole number, not '${flags.n}'`);
  const records = await cli.withRepo(false, (repo) => {
    const head = id ?? (flags.all ? undefined : repo.refs.read('HEAD') ? 'HEAD' : undefined);
    return log(repo, head, { limit, all: flags.all || head === undefined });
  });
  if (cli.flags.json) return records.forEach((r) => cli.json(logJson(r)));
  if (flags.graph) return cli.page(renderGraph(records, (r) => line(cli, r)));
  if (!cli.tty) return cli.out(records.map((r) => `${[shortId(r.id.slice(4)), r.meta.type, r.meta.created_at, r.meta.message_count, r.meta.token_count, oneLine(r.summary, 1000)].join('\t')}\n`).join(''));
  const c = cli.chalk;
  const rows = records.map((r) => [
    c.yellow(shortId(r.id.slice(4))),
    r.meta.type === 'delta' ? r.meta.type : c.magenta(r.meta.type),
    shortTime(r.meta.created_at),
    String(r.meta.message_count),
    String(r.meta.token_count),
    (r.branches.length ? c.green(`(${r.branches.join(', ')}) `) : '') + oneLine(r.summary),
  ]);
  await cli.page(table([['ID', 'TYPE', 'TIME', 'MSGS', 'TOKENS', 'SUMMARY'].map((h) => c.bold(h)), ...rows], plainWidth));
}

function line(cli: Cli, r: CommitRecord): string {
  const c = cli.chalk;
  const refs = r.branches.length ? c.green(` (${r.branches.join(', ')})`) : '';
  return `${c.yellow(shortId(r.id.slice(4)))} ${r.meta.type} ${shortTime(r.meta.created_at)}${refs} ${oneLine(r.summary)}`;
}
