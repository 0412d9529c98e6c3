import { log, type CommitRecord } from '../api/read.js';
import { UsageError } from '../errors/index.js';
import { shortId } from '../core/ids.js';
import type { CommandIO } from '../output/io.js';
import { logJson } from '../output/records.js';
import { oneLine, plainWidth, shortTime, table } from '../output/style.js';
import { renderGraph } from '../output/graph.js';
import { defineCommand } from './command.js';

interface Flags {
  n?: string;
  all?: boolean;
  graph?: boolean;
  thread?: string;
  since?: string;
}

export default defineCommand({
  name: 'log',
  summary: 'history toward the root, newest first',
  args: [{ name: 'id', description: 'where to start (default: HEAD, else every branch)', values: 'branch' }],
  options: [
    { flags: '-n <count>', description: 'at most this many commits' },
    { flags: '--all', description: 'every branch' },
    { flags: '--graph', description: 'draw the chains and where they fork' },
    { flags: '--thread <id>', description: 'only the commits of this thread' },
    { flags: '--since <when>', description: 'only commits created since: a duration back from now (24h, 7d), a time, or all' },
  ],
  examples: ['ctx log alice/auth-fix', 'ctx log --all --graph', 'ctx log alice/auth-fix -n 3 --json', 'ctx log design-room --thread 9f2c', 'ctx log ops-bot --since 24h'],
  async run(io, [id]: [string | undefined], flags: Flags) {
    const limit = flags.n === undefined ? undefined : Number(flags.n);
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) throw new UsageError(`-n takes a whole number, not '${flags.n}'`);
    return io.withRepo(false, (repo) => {
      const head = id ?? (flags.all ? undefined : repo.refs.read('HEAD') ? 'HEAD' : undefined);
      return log(repo, head, { limit, all: flags.all || head === undefined, thread: flags.thread, since: flags.since });
    });
  },
  async print(io, records, flags) {
    if (io.flags.json) return records.forEach((r) => io.json(logJson(r)));
    if (flags.graph) return io.page(renderGraph(records, (r) => line(io, r)));
    const c = io.chalk;
    const type = (t: string) => (t === 'delta' ? t : c.magenta(t));
    if (!io.tty)
      return io.out(records.map((r) => `${[c.yellow(shortId(r.id.slice(4))), type(r.meta.type), r.meta.created_at, r.meta.message_count, r.meta.token_count, oneLine(r.summary, 1000)].join('\t')}\n`).join(''));
    const rows = records.map((r) => [
      c.yellow(shortId(r.id.slice(4))),
      type(r.meta.type),
      shortTime(r.meta.created_at),
      String(r.meta.message_count),
      String(r.meta.token_count),
      (r.branches.length ? c.green(`(${r.branches.join(', ')}) `) : '') + oneLine(r.summary),
    ]);
    await io.page(table([['ID', 'TYPE', 'TIME', 'MSGS', 'TOKENS', 'SUMMARY'].map((h) => c.bold(h)), ...rows], plainWidth));
  },
});

function line(io: CommandIO, r: CommitRecord): string {
  const c = io.chalk;
  const refs = r.branches.length ? c.green(` (${r.branches.join(', ')})`) : '';
  return `${c.yellow(shortId(r.id.slice(4)))} ${r.meta.type} ${shortTime(r.meta.created_at)}${refs} ${oneLine(r.summary)}`;
}
