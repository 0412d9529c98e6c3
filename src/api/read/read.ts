// api/read: reading contexts (show, log, branches, annotations, the chain walk, materialize, windows, budgets, cursors). Imports api/repo only.
// Reading context commits: show, log, branches, and the annotations on them.
import { fullId } from '../../core/ids.js';
import { isLinkRecord, linkOfRecord, type LinkRecord } from '../../core/links.js';
import type { Meta } from '../../core/meta.js';
import { isRecord } from '../../core/neutral.js';
import { parseSince } from '../../core/window.js';
import { displaySummary } from '../../core/summary.js';
import { foreignCommits, readStoredCommits, readArtifacts } from '../../store/context-commits.js';
import { readNotes } from '../../store/notes.js';
import { idOf, type RepoContext } from '../repo/repo-context.js';
import { IntegrityError } from '../../errors/index.js';
import { refs } from '../../store/refs.js';
import { StoreDamage } from '../../store/damage.js';

export type Annotations = Record<string, unknown>;

export interface CommitRecord {
  id: string;
  parent: string | null;
  /** branches whose tip is this commit */
  branches: string[];
  meta: Meta;
  /** latest annotated summary, else meta.summary (a runtime's raw tag there read as its request: core/summary.ts) */
  summary: string;
  /** latest value per annotated field */
  annotations: Annotations;
  /** the code commits it led to, as its note's link records say (the first record of each) */
  links: LinkRecord[];
}

/** A note's JSON-lines records, in line order (a line another tool wrote that is no JSON object is none). */
export function noteRecords(note: string | undefined): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  for (const line of (note ?? '').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line);
      if (r && typeof r === 'object' && !Array.isArray(r)) records.push(r);
    } catch {
      // not JSON: carries no field
    }
  }
  return records;
}

/** A cursor record `{"cursor":{"agent","branch"}}` (ctx cursor): no annotation field. */
export function isCursorRecord(r: Record<string, unknown>): boolean {
  return isRecord(r.cursor);
}

/** Latest value per field over JSON-lines records but cursor and link records, ordered by their `at` (line order breaks ties). */
export function foldAnnotations(note: string | undefined): Annotations {
  return foldRecords(noteRecords(note));
}

/** foldAnnotations of a note's records (noteRecords) already parsed. */
export function foldRecords(all: readonly Record<string, unknown>[]): Annotations {
  const records = all.filter((r) => !isCursorRecord(r) && !isLinkRecord(r));
  records.sort((a, b) => String(a.at ?? '').localeCompare(String(b.at ?? '')));
  const out: Annotations = {};
  for (const r of records) for (const [k, v] of Object.entries(r)) if (k !== 'v') out[k] = v;
  return out;
}

export async function commitRecords(ctx: RepoContext, oids: readonly string[]): Promise<CommitRecord[]> {
  const stored = await readStoredCommits(ctx.engine, oids);
  const notes = await annotationsOf(ctx, oids);
  const tips = new Map<string, string[]>();
  // a damaged ref names no commit here: it is reported by what reads it, not by every record
  // pushed, not copied: 100,000 refs at one commit (a hostile remote's) would copy quadratically
  for (const [name, oid] of ctx.allTips(true)) {
    const names = tips.get(oid);
    if (names) names.push(name);
    else tips.set(oid, [name]);
  }
  return stored.map((s) => {
    const records = noteRecords(notes.get(s.oid));
    const annotations = foldRecords(records);
    const seen = new Set<string>();
    const links = records.flatMap((r) => linkOfRecord(r) ?? []).filter((l) => !seen.has(l.code) && seen.add(l.code));
    return {
      id: fullId(s.oid),
      parent: idOf(s.commit.parents[0] ?? null),
      branches: tips.get(s.oid) ?? [],
      meta: s.meta,
      summary: typeof annotations.summary === 'string' ? annotations.summary : displaySummary(s.meta.summary, s.meta),
      annotations,
      links,
    };
  });
}

/** The notes of `oids`; damaged notes are read as none, with a warning (verify and annotate still refuse them). */
async function annotationsOf(ctx: RepoContext, oids: readonly string[]): Promise<Map<string, string>> {
  try {
    return await readNotes(ctx.engine, ctx.refs, oids);
  } catch (e) {
    if (!(e instanceof StoreDamage) || (e.subject !== refs.notes && e.subject !== 'packed-refs')) throw e;
    // packed-refs that may have lost the notes ref: the same damage a listing goes around
    ctx.warn(e.subject === refs.notes ? `reading without annotations: ${e.message}` : brokenRefWarning(e));
    return new Map();
  }
}

/** The warning for a ref a listing leaves out, as git's "ignoring broken ref". */
export function brokenRefWarning(e: IntegrityError): string {
  if (e instanceof StoreDamage && e.subject === 'packed-refs') return `ignoring damaged ${e.message}`;
  return `ignoring broken ref ${e.message}`;
}

export async function show(ctx: RepoContext, spec: string): Promise<CommitRecord> {
  const [rec] = await commitRecords(ctx, [await ctx.resolve(spec)]);
  return rec;
}

export async function artifactOf(ctx: RepoContext, spec: string): Promise<Uint8Array> {
  const oid = await ctx.resolve(spec);
  const [stored] = await readStoredCommits(ctx.engine, [oid]);
  return (await readArtifacts(ctx.engine, [stored]))[0];
}

export interface LogOptions {
  /** at most this many commits */
  limit?: number;
  /** every branch instead of one chain */
  all?: boolean;
  /** only commits of this thread (meta.json `thread_id`) */
  thread?: string;
  /** only commits created in this window: a duration back from now (`24h`), a time, or `all` */
  since?: string;
  /** with `all`: a damaged ref is left out and warned about (ctx.warn), as git log --all does, instead of failing the listing */
  skipBroken?: boolean;
}

/**
 * History toward the root, newest first. With `all`, every branch's commits in topological order,
 * like `git log --topo-order`: created_at is not monotonic along a chain, so it only orders lines.
 */
export async function log(ctx: RepoContext, spec: string | undefined, opts: LogOptions = {}): Promise<CommitRecord[]> {
  const limit = opts.limit ?? Infinity;
  const { thread } = opts;
  const window = opts.since === undefined ? null : parseSince(opts.since, ctx.now());
  const shown = (rs: CommitRecord[]) => rs.filter((r) => (thread === undefined || r.meta.thread_id === thread) && (window === null || r.meta.created_at >= window.start));
  if (!opts.all && spec !== undefined) {
    const oids = await ctx.firstParents(await ctx.resolve(spec), Number.isFinite(limit) && thread === undefined && !window ? limit : undefined);
    return shown(await commitRecords(ctx, oids)).slice(0, limit);
  }
  const scans = [ctx.refs.scan(refs.heads), ctx.refs.scan(refs.remotes)];
  const broken = (e: IntegrityError) => {
    if (!opts.skipBroken) throw e;
    ctx.warn(brokenRefWarning(e));
  };
  scans.flatMap((s) => s.damaged).forEach(broken);
  const tips = new Map(scans.flatMap((s) => s.refs).map((r) => [r.oid, r.ref]));
  const values: string[] = [];
  const found: string[] = [];
  for (const [tip, ref] of tips) {
    try {
      found.push(await ctx.commitAt(ref, tip));
      values.push(tip);
    } catch (e) {
      if (!(e instanceof StoreDamage)) throw e;
      broken(e);
    }
  }
  const skip = await foreignValues(ctx, scans.flatMap((s) => s.refs), values, found);
  const starts = found.filter((_, i) => !skip.has(values[i]));
  // ordered from ids, parents and times alone, then only the commits shown are read whole
  const skeleton = thread === undefined && !window ? await history(ctx, starts) : null;
  if (skeleton) return commitRecords(ctx, topoOrder(skeleton).slice(0, limit).map((c) => c.id.slice(4)));
  const seen = new Set<string>();
  for (const start of starts) for (const oid of await ctx.firstParents(start)) seen.add(oid);
  return shown(topoOrder(await commitRecords(ctx, [...seen]))).slice(0, limit);
}

/**
 * Of ref `values` (whose commits are `commits`), those that name another tool's commit: a remote's
 * plain git branch is named once per ref that holds it and left out, not read as damage of the store.
 */
export async function foreignValues(ctx: RepoContext, listed: readonly { ref: string; oid: string }[], values: readonly string[], commits: readonly string[]): Promise<Set<string>> {
  let foreign: Set<string>;
  try {
    foreign = await foreignCommits(ctx.engine, commits);
  } catch {
    return new Set(); // an object that cannot be read: what reads it later names it
  }
  const skipped = new Set(values.filter((_, i) => foreign.has(commits[i])));
  for (const r of listed) if (skipped.has(r.oid)) ctx.warn(`skipping ${branchName(r.ref)}: not a context commit (no meta.json)`);
  return skipped;
}

/** `refs/heads/x` → `x`, `refs/remotes/origin/x` → `origin/x`: as log --all names them. */
const branchName = (ref: string) => ref.replace(/^refs\/(heads|remotes)\//, '');

/** The engine's history of `tips` as topoOrder takes it (null when it has none, or cannot read it: the records then name what is damaged). */
async function history(ctx: RepoContext, tips: readonly string[]): Promise<{ id: string; parent: string | null; meta: { created_at: string } }[] | null> {
  if (!ctx.engine.history) return null;
  try {
    const commits = await ctx.engine.history(tips);
    return commits.map((c) => ({ id: fullId(c.oid), parent: idOf(c.parent), meta: { created_at: new Date(c.time * 1000).toISOString() } }));
  } catch {
    return null;
  }
}

/**
 * Children before their parent, each line of descent kept together: a fork's lines one after the
 * other, then the commit they fork from. Between lines (and between unrelated chains) the one
 * holding the newest commit comes first; ids break ties.
 */
export function topoOrder<T extends { id: string; parent: string | null; meta: { created_at: string } }>(records: readonly T[]): T[] {
  // by index: a store's listing orders every commit it has
  const n = records.length;
  const at = new Map(records.map((r, i) => [r.id, i]));
  const parent = Int32Array.from(records, (r) => (r.parent === null ? -1 : (at.get(r.parent) ?? -1)));
  const childCount = new Int32Array(n);
  for (let i = 0; i < n; i++) if (parent[i] >= 0) childCount[parent[i]]++;
  // newest created_at under each commit (itself included), from the leaves down, to the second: as
  // the commit's time has it, so a listing ordered from commit times alone is the same
  const newest = records.map((r) => r.meta.created_at.slice(0, 19));
  const waiting = Int32Array.from(childCount);
  const ready: number[] = [];
  for (let i = 0; i < n; i++) if (waiting[i] === 0) ready.push(i);
  while (ready.length) {
    const i = ready.pop()!;
    const p = parent[i];
    if (p < 0) continue;
    if (newest[i] > newest[p]) newest[p] = newest[i];
    if (--waiting[p] === 0) ready.push(p);
  }
  const children: number[][] = [];
  for (let i = 0; i < n; i++) if (parent[i] >= 0) (children[parent[i]] ??= []).push(i);
  // the line holding the newest commit first; ids break ties
  const first = (a: number, b: number) => (newest[a] !== newest[b] ? (newest[a] > newest[b] ? -1 : 1) : records[a].id < records[b].id ? 1 : -1);
  // post-order walk from the roots, without recursion (chains are long): a commit after its subtree
  const out: T[] = [];
  const roots: number[] = [];
  for (let i = 0; i < n; i++) if (parent[i] < 0) roots.push(i);
  const stack: number[] = roots.sort(first).reverse();
  const expanded = new Uint8Array(n);
  while (stack.length) {
    const i = stack.pop()!;
    if (expanded[i]) {
      out.push(records[i]);
      continue;
    }
    expanded[i] = 1;
    stack.push(i);
    const kids = children[i];
    if (kids) stack.push(...(kids.length > 1 ? [...kids].sort(first).reverse() : kids));
  }
  return out;
}

export interface BranchInfo {
  name: string;
  id: string;
  meta: Meta;
}

/** Every branch with its tip's metadata; the first damaged one is thrown (an IntegrityError, exit 5). */
export async function branches(ctx: RepoContext): Promise<BranchInfo[]> {
  const { branches: list, damaged } = await branchList(ctx);
  if (damaged.length) throw damaged[0];
  return list;
}

/**
 * The branches that read, and one integrity error per damaged branch (a garbage ref file, a tip that
 * is no commit or cannot be read) or damaged packed-refs: `ctx branch` lists the first and reports the rest.
 * `remote`: the remote-tracking branches instead, named REMOTE/NAME (`ctx branch -r`).
 */
export async function branchList(ctx: RepoContext, remote = false): Promise<{ branches: BranchInfo[]; damaged: IntegrityError[] }> {
  const prefix = remote ? refs.remotes : refs.heads;
  const scanned = ctx.refs.scan(prefix);
  const values = scanned.refs.map((h) => h.oid);
  // another tool's branch (an older pull made one of a remote's plain commit) is named and left out
  const skip = await foreignValues(ctx, scanned.refs, values, values);
  const heads = scanned.refs.filter((h) => !skip.has(h.oid));
  const damaged: IntegrityError[] = [...scanned.damaged];
  const info = async (ref: string, oid: string): Promise<BranchInfo> => {
    const [stored] = await readStoredCommits(ctx.engine, [await ctx.commitAt(ref, oid)]);
    return { name: ref.slice(prefix.length), id: fullId(oid), meta: stored.meta };
  };
  try {
    // every tip in one pipelined pass; only when one fails is each read alone, to name it
    const objs = await ctx.engine.readObjects(heads.map((h) => h.oid));
    if (objs.some((o) => o?.type !== 'commit')) throw new IntegrityError('a tip is not a commit');
    const stored = await readStoredCommits(ctx.engine, heads.map((h) => h.oid));
    return { branches: heads.map((h, i) => ({ name: h.ref.slice(prefix.length), id: fullId(h.oid), meta: stored[i].meta })), damaged };
  } catch (e) {
    if (!(e instanceof IntegrityError)) throw e;
  }
  const list: BranchInfo[] = [];
  for (const h of heads) {
    try {
      list.push(await info(h.ref, h.oid));
    } catch (e) {
      if (!(e instanceof IntegrityError)) throw e;
      // named by its ref, as git names a broken ref
      damaged.push(e instanceof StoreDamage && e.subject === h.ref ? e : new StoreDamage(h.ref, `its tip ${e.message}`, { cause: e }));
    }
  }
  return { branches: list, damaged };
}

export interface ThreadInfo {
  thread: string;
  /** `ctx-<40 hex>` of the thread's last commit on the chain */
  id: string;
  created_at: string;
  /** meta.json `author` of that commit; null when it has none */
  author: string | null;
  summary: string;
  /** commits of the thread on the chain */
  commits: number;
}

/** The threads on the chain at `spec` (meta.json `thread_id`), by their last commit, newest first: a status preamble. */
export async function threads(ctx: RepoContext, spec: string): Promise<ThreadInfo[]> {
  const byThread = new Map<string, ThreadInfo>();
  for (const r of await log(ctx, spec)) {
    const t = r.meta.thread_id;
    if (t === undefined) continue;
    const known = byThread.get(t);
    if (known) known.commits++;
    else byThread.set(t, { thread: t, id: r.id, created_at: r.meta.created_at, author: r.meta.author ?? null, summary: r.summary, commits: 1 });
  }
  return [...byThread.values()];
}
