// The per-ref report of push, fetch and pull: a table on a terminal, TAB-separated lines otherwise,
// JSON Lines with --json; hints for failed or divergent refs go to stderr.
import type { RefReport, SyncReport } from '../api/sync/sync.js';
import { shortId } from '../core/ids.js';
import { RemoteError } from '../errors/index.js';
import type { CommandIO } from './io.js';
import { refJson } from './records.js';
import { plainWidth, table } from './style.js';

const id = (oid: string | null) => (oid === null ? '-' : shortId(oid));

export function printSyncReport(io: CommandIO, s: SyncReport, verb: string, verbose = true): void {
  if (!verbose && !io.flags.json) {
    io.out(`${syncSummary(s, verb)}\n`);
    return printHints(io, s);
  }
  if (io.flags.json) s.refs.forEach((r) => io.json(refJson(s, r)));
  else if (!io.tty) io.out(s.refs.map((r) => `${[r.status, r.ref, r.local, id(r.old), id(r.new)].join('\t')}\n`).join(''));
  else {
    const c = io.chalk;
    const paint = (r: RefReport) => (!r.ok ? c.red(r.status) : r.status === 'up to date' ? c.dim(r.status) : c.green(r.status));
    const range = (r: RefReport) => (r.old && r.new && r.old !== r.new ? `${id(r.old)}..${id(r.new)}` : id(r.new ?? r.old));
    const where = (r: RefReport) => (r.local === r.ref ? r.ref : `${r.ref} → ${r.local}`);
    io.out(`${verb} ${s.url}\n` + table(s.refs.map((r) => [paint(r), where(r), c.yellow(range(r))]), plainWidth));
  }
  printHints(io, s);
  const counts = new Map<string, number>();
  for (const r of s.refs) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  if (!io.flags.json) io.note(`${s.remote} (${s.transport} transport): ${[...counts].map(([k, n]) => `${n} ${k}`).join(', ') || 'nothing to do'}`);
}

function printHints(io: CommandIO, s: SyncReport): void {
  for (const r of s.refs) if (r.hint && (!r.ok || r.diverged)) io.note(`${r.ok ? 'note' : 'hint'}: ${r.ref.replace(/^refs\/(heads|tags)\//, '')}: ${r.hint}`);
  for (const w of s.warnings ?? []) io.note(w);
}

/** What a ref is to a person reading one line: a branch, a tag, a remote-tracking branch or the annotations. */
function groupOf(s: SyncReport, r: RefReport): [string, string] {
  if (r.local.startsWith('refs/remotes/')) return [`${s.remote}/*`, `${s.remote}/*`];
  if (r.ref === 'refs/notes/ctx') return ['annotations', 'annotations'];
  return r.ref.startsWith('refs/tags/') ? ['tag', 'tags'] : ['branch', 'branches'];
}

/**
 * One line for push and pull without -v: `To URL: 2 branches new, 1 up to date; annotations fast-forward`,
 * counted by kind of ref (branches, tags, REMOTE/*, annotations) then by status, in the order met.
 */
export function syncSummary(s: SyncReport, verb: string): string {
  const groups = new Map<string, { one: string; many: string; counts: Map<string, number> }>();
  for (const r of s.refs) {
    const [one, many] = groupOf(s, r);
    const g = groups.get(many) ?? groups.set(many, { one, many, counts: new Map() }).get(many)!;
    g.counts.set(r.status, (g.counts.get(r.status) ?? 0) + 1);
  }
  const order = ['branches', 'tags', `${s.remote}/*`, 'annotations'];
  const parts = [...groups.values()].sort((a, b) => order.indexOf(a.many) - order.indexOf(b.many)).map((g) =>
    [...g.counts]
      .map(([status, n], i) => (g.many === 'annotations' ? `annotations ${status}` : i > 0 ? `${n} ${status}` : `${n} ${n === 1 ? g.one : g.many} ${status}`))
      .join(', '),
  );
  const held = s.held?.length ? [`${s.held.length} fork/* not sent (ctx push --all sends ${s.held.length === 1 ? 'it' : 'them'})`] : [];
  return `${verb} ${s.url}: ${[...parts, ...held].join('; ') || 'nothing to do'}`;
}

/** Exit 1 when any ref failed, after the report is printed. */
export function syncFailure(verb: string, s: SyncReport): Error | undefined {
  const failed = s.refs.filter((r) => !r.ok).length;
  return failed ? new RemoteError(`${verb} ${s.remote}: ${failed} of ${s.refs.length} refs failed`) : undefined;
}

/** The transport's progress: git's own passes through stderr; isomorphic-git's lines feed the bar. */
export function syncProgress(io: CommandIO, verb: string) {
  const bar = io.progress(verb, '');
  return { progress: io.showProgress, onProgress: (text: string) => bar.status(text), done: () => bar.done() };
}
