// Reading context commits: show, log, branches, and the annotations on them.
import { fullId } from '../core/ids.js';
import type { Meta } from '../core/meta.js';
import { readStoredCommits, readArtifacts } from '../store/context-commits.js';
import { readNotes } from '../store/notes.js';
import { idOf, type RepoContext } from './repo-context.js';

export type Annotations = Record<string, unknown>;

export interface CommitRecord {
  id: string;
  parent: string | null;
  /** branches whose tip is this commit */
  branches: string[];
  meta: Meta;
  /** latest annotated summary, else meta.summary */
  summary: string;
  /** latest value per annotated field */
  annotations: Annotations;
}

/** Latest value per field over JSON-lines records, ordered by their `at` (line order breaks ties). */
export function foldAnnotations(note: string | undefined): Annotations {
  if (!note) return {};
  const records: Record<string, unknown>[] = [];
  for (const line of note.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line);
      if (r && typeof r === 'object' && !Array.isArray(r)) records.push(r);
    } catch {
      // a line another tool wrote that is not JSON carries no field
    }
  }
  records.sort((a, b) => String(a.at ?? '').localeCompare(String(b.at ?? '')));
  const out: Annotations = {};
  for (const r of records) for (const [k, v] of Object.entries(r)) if (k !== 'v') out[k] = v;
  return out;
}

export async function commitRecords(ctx: RepoContext, oids: readonly string[]): Promise<CommitRecord[]> {
  const stored = await readStoredCommits(ctx.engine, oids);
  const notes = await readNotes(ctx.engine, ctx.refs, oids);
  const tips = new Map<string, string[]>();
  for (const [name, oid] of ctx.allTips()) tips.set(oid, [...(tips.get(oid) ?? []), name]);
  return stored.map((s) => {
    const annotations = foldAnnotations(notes.get(s.oid));
    return {
      id: fullId(s.oid),
      parent: idOf(s.commit.parents[0] ?? null),
      branches: tips.get(s.oid) ?? [],
      meta: s.meta,
      summary: typeof annotations.summary === 'string' ? annotations.summary : s.meta.summary,
      annotations,
    };
  });
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
}

/** History toward the root, newest first; with `all`, every branch's commits by time. */
export async function log(ctx: RepoContext, spec: string | undefined, opts: LogOptions = {}): Promise<CommitRecord[]> {
  const limit = opts.limit ?? Infinity;
  if (!opts.all && spec !== undefined) {
    const oids = await ctx.firstParents(await ctx.resolve(spec), Number.isFinite(limit) ? limit : undefined);
    return commitRecords(ctx, oids);
  }
  // depth (distance from the root) keeps children before parents when times tie
  const depth = new Map<string, number>();
  for (const tip of new Set(ctx.allTips().values())) {
    const chain = await ctx.firstParents(tip);
    chain.forEach((oid, i) => depth.set(oid, chain.length - i));
  }
  const records = await commitRecords(ctx, [...depth.keys()]);
  const d = (r: CommitRecord) => depth.get(r.id.slice(4))!;
  records.sort((a, b) => b.meta.created_at.localeCompare(a.meta.created_at) || d(b) - d(a) || (a.id < b.id ? 1 : -1));
  return records.slice(0, limit);
}

export interface BranchInfo {
  name: string;
  id: string;
  meta: Meta;
}

export async function branches(ctx: RepoContext): Promise<BranchInfo[]> {
  const tips = [...ctx.branchTips()];
  const stored = await readStoredCommits(ctx.engine, tips.map(([, oid]) => oid));
  return tips.map(([name, oid], i) => ({ name, id: fullId(oid), meta: stored[i].meta }));
}
