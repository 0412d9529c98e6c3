import { log, type CommitRecord } from '../api/read/read.js';
import { drainAt } from '../api/links/drain.js';
import { UsageError } from '../errors/index.js';
import { shortId } from '../core/ids.js';
import type { CommandIO } from '../output/io.js';
import { logJson } from '../output/records.js';
import { oneLine, plainWidth, shortTime, table, tsvLine, visible } from '../output/style.js';
import { renderGraph } from '../output/graph.js';
import { defineCommand } from './command.js';

interface Flags {
  n?: string;
  all?: boolean;
  graph?: boolean;
  thread?: string;
  since?: string;
  format?: string;
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
    { flags: '--format <fmt>', description: 'one line per commit with placeholders: %h %H %p %P %s %an %ae %ad %ai %aI %at %d %D %n %%, %(type) %(format) %(session) %(messages) %(tokens) %(template) %(machine) %(thread) (man ctx-log)' },
  ],
  examples: ['ctx log alice/auth-fix', 'ctx log --all --graph', 'ctx log alice/auth-fix -n 3 --json', 'ctx log design-room --thread 9f2c', 'ctx log ops-bot --since 24h', "ctx log --all --format '%h %s'", "ctx log alice/auth-fix --format '%h %ad %an %(messages) %s'"],
  async run(io, [id]: [string | undefined], flags: Flags) {
    const limit = flags.n === undefined ? undefined : Number(flags.n);
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) throw new UsageError(`-n takes a whole number, not '${flags.n}'`);
    return io.withRepo(false, async (repo) => {
      // the code commits post-commit queued in the repository here are linked before the links are listed
      await drainAt(repo, io.cwd);
      const head = id ?? (flags.all ? undefined : repo.refs.read('HEAD') ? 'HEAD' : undefined);
      return log(repo, head, { limit, all: flags.all || head === undefined, thread: flags.thread, since: flags.since, skipBroken: true });
    });
  },
  async print(io, records, flags) {
    if (io.flags.json) return records.forEach((r) => io.json(logJson(r)));
    if (flags.format !== undefined) {
      const fmt = flags.format;
      if (flags.graph) return io.page(renderGraph(records, (r) => formatCommit(fmt, r)));
      return io.out(records.map((r) => `${formatCommit(fmt, r)}\n`).join(''));
    }
    if (flags.graph) return io.page(renderGraph(records, (r) => line(io, r)));
    const c = io.chalk;
    const type = (t: string) => (t === 'delta' ? t : c.magenta(t));
    if (!io.tty)
      return io.out(records.map((r) => tsvLine([c.yellow(shortId(r.id.slice(4))), type(visible(r.meta.type)), visible(r.meta.created_at), r.meta.message_count, r.meta.token_count, oneLine(r.summary, 1000)])).join(''));
    const rows = records.map((r) => [
      c.yellow(shortId(r.id.slice(4))),
      type(visible(r.meta.type)),
      visible(shortTime(r.meta.created_at)),
      String(r.meta.message_count),
      String(r.meta.token_count),
      (r.branches.length ? c.green(`(${r.branches.join(', ')}) `) : '') + codeMark(io, r) + oneLine(r.summary),
    ]);
    await io.page(table([['ID', 'TYPE', 'TIME', 'MSGS', 'TOKENS', 'SUMMARY'].map((h) => c.bold(h)), ...rows], plainWidth));
  },
});

function line(io: CommandIO, r: CommitRecord): string {
  const c = io.chalk;
  const refs = r.branches.length ? c.green(` (${visible(r.branches.join(', '))})`) : '';
  return `${c.yellow(shortId(r.id.slice(4)))} ${visible(r.meta.type)} ${visible(shortTime(r.meta.created_at))}${refs} ${codeMark(io, r)}${oneLine(r.summary)}`;
}

/** `[code 1a2b3c4d5e6f +1] `: the code commits a context commit led to, first one named. */
function codeMark(io: CommandIO, r: CommitRecord): string {
  if (!r.links.length) return '';
  return io.chalk.cyan(`[code ${r.links[0].code.slice(0, 12)}${r.links.length > 1 ? ` +${r.links.length - 1}` : ''}] `);
}

/**
 * A commit through a `--format` string, as git log's placeholders read: %H/%h id (ctx-, full or 12
 * hex), %P/%p parent, %s summary (else `<type>: <n> messages`, the commit's subject), %an principal,
 * %ae principal@machine, %ad created_at, %ai `2025-01-02 03:04:05 +0000`, %aI ISO 8601, %at seconds,
 * %d ` (branches)`, %D branches, %n newline, %% percent; ctx's own as %(name). Anything else is
 * printed as written, as git does.
 */
export function formatCommit(fmt: string, r: CommitRecord): string {
  const m = r.meta;
  const short = (id: string | null) => (id === null ? '' : shortId(id.slice(4)));
  const own: Record<string, string> = {
    type: m.type,
    format: m.format,
    session: m.session_id,
    messages: String(m.message_count),
    tokens: String(m.token_count),
    template: m.template,
    machine: m.machine,
    thread: m.thread_id ?? '',
  };
  const at = m.created_at;
  const fields: Record<string, () => string> = {
    H: () => r.id,
    h: () => short(r.id),
    P: () => r.parent ?? '',
    p: () => short(r.parent),
    s: () => oneLine(r.summary, Infinity) || `${m.type}: ${m.message_count} messages`,
    an: () => m.principal,
    ae: () => `${m.principal}@${m.machine}`,
    ad: () => at,
    ai: () => `${at.slice(0, 10)} ${at.slice(11, 19)} +0000`,
    aI: () => `${at.slice(0, 19)}Z`,
    at: () => String(Math.floor(Date.parse(at) / 1000)),
    d: () => (r.branches.length ? ` (${r.branches.join(', ')})` : ''),
    D: () => r.branches.join(', '),
    n: () => '\n',
    '%': () => '%',
  };
  // a placeholder's value is store text: shown inert (%n is the one newline a format asks for)
  return fmt.replace(/%\(([a-z]+)\)|%(a[neditI]|[HhPpsdDn%])/g, (all, name: string | undefined, key: string | undefined) =>
    name !== undefined ? (own[name] === undefined ? all : visible(own[name])) : key === 'n' ? '\n' : fields[key!] ? visible(fields[key!]()) : all,
  );
}
