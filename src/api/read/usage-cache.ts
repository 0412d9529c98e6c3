// What `ctx usage` found in each context commit, cached by commit id under <gitdir>/ctx/usage/: a
// commit never changes, so its responses are read from its artifact once. Derived, never pushed,
// rebuilt when missing or unreadable.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UsageRecord } from '../../formats/format.js';
import { derivedDir, writeDerived } from '../../store/derived.js';

/** A commit's responses as the runtime's format read them, `time` already its commit's when the line had none. */
export type CommitUsage = UsageRecord[];

// bumped when what a format's usage() returns changes, so an older cache is not read
const FILE = 'commits-v1.json';
type Row = [id: string | null, model: string | null, time: string | null, cwd: string | null, input: number, output: number, cacheRead: number, cacheWrite: number];

export class UsageCache {
  private readonly rows: Map<string, Row[]>;
  private added = 0;

  private constructor(private readonly gitdir: string, rows: Map<string, Row[]>) {
    this.rows = rows;
  }

  /** The cache of the store at `gitdir`; an absent or unreadable file is an empty cache. */
  static open(gitdir: string): UsageCache {
    let rows = new Map<string, Row[]>();
    try {
      const parsed = JSON.parse(readFileSync(join(gitdir, 'ctx', 'usage', FILE), 'utf8')) as Record<string, Row[]>;
      if (parsed && typeof parsed === 'object') rows = new Map(Object.entries(parsed).filter(([, v]) => Array.isArray(v) && v.every(validRow)));
    } catch {
      // missing or damaged: rebuilt from the artifacts
    }
    return new UsageCache(gitdir, rows);
  }

  has(commit: string): boolean {
    return this.rows.has(commit);
  }

  get(commit: string): CommitUsage | undefined {
    return this.rows.get(commit)?.map(fromRow);
  }

  set(commit: string, records: CommitUsage): void {
    this.rows.set(commit, records.map(toRow));
    this.added++;
  }

  /** Written whole and renamed into place when something was added; a store we cannot write to just stays uncached. */
  save(): void {
    if (!this.added) return;
    try {
      writeDerived(join(derivedDir(this.gitdir, 'usage'), FILE), JSON.stringify(Object.fromEntries(this.rows)));
    } catch {
      // a read-only store: the next run reads the artifacts again
    }
  }
}

const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const strOrNull = (v: unknown) => v === null || typeof v === 'string';

function validRow(r: unknown): r is Row {
  return Array.isArray(r) && r.length === 8 && r.slice(0, 4).every(strOrNull) && r.slice(4).every(num);
}

function toRow(r: UsageRecord): Row {
  return [r.id ?? null, r.model ?? null, r.time ?? null, r.cwd ?? null, r.input, r.output, r.cacheRead, r.cacheWrite];
}

function fromRow([id, model, time, cwd, input, output, cacheRead, cacheWrite]: Row): UsageRecord {
  return { id: id ?? undefined, model: model ?? undefined, time: time ?? undefined, cwd: cwd ?? undefined, input, output, cacheRead, cacheWrite };
}
