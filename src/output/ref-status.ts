// The per-ref report of push, fetch and pull: a table on a terminal, TAB-separated lines otherwise,
// JSON Lines with --json; hints for failed or divergent refs go to stderr.
import type { RefReport, SyncReport } from '../api/sync.js';
import { shortId } from '../core/ids.js';
import { plainWidth, table } from './style.js';
import { progress, type Progress } from './progress.js';
import type { Cli } from '../cli/context.js';

export function refJson(s: SyncReport, r: RefReport) {
  return { v: 1, remote: s.remote, ref: r.ref, local: r.local, old: r.old, new: r.new, status: r.status, ok: r.ok, diverged: r.diverged };
}

const id = (oid: string | null) => (oid === null ? '-' : shortId(oid));

export function printSyncReport(cli: Cli, s: SyncReport, verb: string): void {
  if (cli.flags.json) s.refs.forEach((r) => cli.json(refJson(s, r)));
  else if (!cli.tty) cli.out(s.refs.map((r) => `${[r.status, r.ref, r.local, id(r.old), id(r.new)].join('\t')}\n`).join(''));
  else {
    const c = cli.chalk;
    const paint = (r: RefReport) => (!r.ok ? c.red(r.status) : r.status === 'up to date' ? c.dim(r.status) : c.green(r.status));
    const range = (r: RefReport) => (r.old && r.new && r.old !== r.new ? `${id(r.old)}..${id(r.new)}` : id(r.new ?? r.old));
    const where = (r: RefReport) => (r.local === r.ref ? r.ref : `${r.ref} → ${r.local}`);
    cli.out(`${verb} ${s.url}\n` + table(s.refs.map((r) => [paint(r), where(r), c.yellow(range(r))]), plainWidth));
  }
  for (const r of s.refs) if (r.hint && (!r.ok || r.diverged)) cli.note(`${r.ok ? 'note' : 'hint'}: ${r.ref.replace(/^refs\/(heads|tags)\//, '')}: ${r.hint}`);
  const counts = new Map<string, number>();
  for (const r of s.refs) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  if (!cli.flags.json) cli.note(`${s.remote} (${s.transport} transport): ${[...counts].map(([k, n]) => `${n} ${k}`).join(', ') || 'nothing to do'}`);
}

/** isomorphic-git's transfers report here: a spinner on a terminal, started on the first report. */
export function transferProgress(what: string): { update: (text: string) => void; done: () => void } {
  let bar: Promise<Progress> | null = null;
  return {
    update: (text) => void (bar ??= progress(what)).then((b) => b.update(text)),
    done: () => void bar?.then((b) => b.done()),
  };
}
