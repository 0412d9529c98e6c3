// The search index: derived data that narrows `grep` and `files` to the commits that may hold what
// is looked for. It holds every context commit of every branch (local and remote-tracking) once: its
// first parent and generation (to order and attribute hits as the chain walk does, search.md), the
// text grep searches (FTS5 trigrams, case folded: a superset of the commits holding a literal) and
// the names of the files its tool calls touched. Writers do nothing: a search first catches up with
// the refs (only commits it has not read; context commits never change). What it answers is a list
// of commits read again from the store and checked there, so a damaged file can lose or add
// candidates but never put text on screen that is not in the store.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, Statement } from 'node-sqlite3-wasm';
import { blockText, fileNamed } from '../../core/grep-match.js';
import { components } from '../../core/path-match.js';
import { ConflictError, CtxError } from '../../errors/index.js';
import { derivedDir, writeDerived } from '../../store/derived.js';
import { refs } from '../../store/refs.js';
import { trailer } from '../read/context-reader.js';
import type { RepoContext } from '../repo/repo-context.js';
import { dropIndex, indexPath, isSqliteError, openIndex } from './index-db.js';
import { refsStamp } from './refs-stamp.js';
import { toolReader, type TouchAction } from './effects.js';
import { candidateOf, linksOf, scanListed, searchable, withParents, type Candidate } from './scan.js';

/** What the index narrows by: text every hit holds (a literal of 3 characters or more), or the last component of a path touched. */
export type IndexQuery = { text: string } | { name: string };

/**
 * The branches searched: those given (name → tip, in search order), or every local branch
 * (`heads`), or every local and remote-tracking one (`all`), by name, as `searchedTips` lists them.
 */
export type Searched = readonly [string, string][] | 'heads' | 'all';

/**
 * The searchable commits of the chains searched that may hold a match of `q`, each with the branch
 * it is searched on, in the order the chain walk reads them; null when the index cannot answer
 * (busy, disabled, a tip it does not hold, a damaged ref, found damaged).
 */
export async function indexedCandidates(ctx: RepoContext, searched: Searched, q: IndexQuery): Promise<Candidate[] | null> {
  // its candidates are read from the store: by git when they are packed
  return withIndex(ctx, true, async (db, exact) => {
    // every branch: the index's own copy of the refs, which only an exact one may stand for
    if (typeof searched === 'string' && !exact) return null;
    const listed = listed_(db, searched, q);
    if (listed === null) return null;
    const links = await linksOf(ctx, listed.map((l) => l.oid));
    const cands: Candidate[] = [];
    const parents: (string | null)[] = [];
    for (const [i, l] of links.entries()) {
      // the index said which commit and which parent: the store must say the same
      if (!l || l.parent !== listed[i].parent) throw new IndexDamage(`it lists ${listed[i].oid.slice(0, 12)} with a parent the store does not give`);
      const c = candidateOf(l, listed[i].branch);
      if (!searchable(c, l.message)) continue;
      cands.push(c);
      parents.push(l.parent);
    }
    await withParents(ctx, cands, parents);
    return cands;
  });
}

/** A tool call's touch of a file as the index recorded it, on the branch searched that holds its commit. */
export interface IndexedTouch {
  oid: string;
  branch: string;
  entry: number;
  path: string;
  tool: string;
  action: TouchAction;
  at: string;
  session: string;
}

/**
 * What `files` reports of the files named `name` on the chains searched, answered from the index
 * alone (no commit is read: its rows were written from the store's objects); in no particular
 * order. Null when the index cannot answer, as `indexedCandidates`.
 */
export async function indexedTouches(ctx: RepoContext, searched: Searched, name: string): Promise<IndexedTouch[] | null> {
  return withIndex(ctx, false, async (db, exact) => {
    if (typeof searched === 'string' && !exact) return null;
    const given = typeof searched === 'string' ? null : tipIds(db, searched);
    if (given === undefined) return null;
    // from the index on names alone (it holds every column), a list per column (fewer and smaller texts than a list per row)
    const cols = ['rowid', 'commit_id', 'entry', 'path', 'tool', 'action', 'at', 'session', 'oid', 'run'] as const;
    // with the branches by name, each row's run's refs if it is plain (settleRuns): null for any other
    const plainCol = given ? '' : ', json_group_array(json(r.plain)) AS plain';
    const t = db.get(`SELECT ${cols.map((c) => `json_group_array(t.${c}) AS ${c}`).join(', ')}${plainCol} FROM touches t ${given ? '' : 'LEFT JOIN runs r ON r.id = t.run '}WHERE t.name = ?`, [name]) as Record<(typeof cols)[number] | 'plain', string>;
    const [rowid, commit, entry, run] = [t.rowid, t.commit_id, t.entry, t.run].map((j) => JSON.parse(j) as number[]);
    const [path, tool, action, at, session, oid] = [t.path, t.tool, t.action, t.at, t.session, t.oid].map((j) => JSON.parse(j) as string[]);
    // in the order they were written: the calls' order in their commits
    const order = rowid.map((_, i) => i).sort((a, b) => rowid[a] - rowid[b]);
    const runOf = new Map<number, number>();
    for (let i = 0; i < commit.length; i++) runOf.set(commit[i], run[i]);
    let plainAt: Map<number, string[]> | undefined;
    if (!given) {
      plainAt = new Map();
      (JSON.parse(t.plain) as (string[] | null)[]).forEach((names, i) => names && plainAt!.set(run[i], names));
    }
    const branchOf = writersOf(db, searched, given, runOf, plainAt);
    const out: IndexedTouch[] = [];
    for (const i of order) {
      const branch = branchOf.get(commit[i]);
      if (branch !== undefined) out.push({ oid: oid[i], branch, entry: entry[i], path: path[i], tool: tool[i], action: action[i] as TouchAction, at: at[i], session: session[i] });
    }
    return out;
  });
}

/** The index's ids of the tips given, by their place (undefined when one is not in the index). */
function tipIds(db: Database, searched: readonly [string, string][]): [string, number][] | undefined {
  const known = db.prepare('SELECT id FROM commits WHERE oid = ?');
  try {
    const out: [string, number][] = [];
    for (const [name, oid] of searched) {
      const row = known.get([oid]) as { id: number } | null;
      if (!row) return undefined;
      out.push([name, row.id]);
    }
    return out;
  } finally {
    known.finalize();
  }
}

/**
 * The branch each of the commits `cands` (id → run) is searched on (scan.ts `writers`, as `ordered`
 * tells it for grep), those no tip searched holds left out. Worked out on the runs at and after them (a
 * stretch of a chain without forks, runKeeper): from each its last commit, the runs that start after it
 * and the refs inside it, so a `files` answer of thousands of rows costs a few probes a run, not one a
 * commit. Sessions are read only where a fork or a tip inside a chain makes the owner depend on them (rare).
 */
function writersOf(db: Database, searched: Searched, given: [string, number][] | null, all: ReadonlyMap<number, number>, plainAt?: ReadonlyMap<number, string[]>): Map<number, string> {
  const out = new Map<number, string>();
  // a plain run's commits (settleRuns) go with the first branch searched at its last, read with the run
  const cands = plainAt ? byPlainRuns(db, all, plainAt, searched === 'all', out) : all;
  if (cands.size === 0) return out;
  const walk = walkRuns(db, cands, given);
  // the tips by commit
  const tips = given ?? tipsNamed(db, walk.refs, searched === 'all');
  const owner = ownersOf(db, tips.map(([name, id]): [string, number] => [name, walk.placeOf(id) ?? -1]), walk);
  // a plain run's commits go with the first tip at its last (each name once, at its first place)
  const firstAt = new Map<number, number>();
  const named = new Set<string>();
  tips.forEach(([name, id], k) => {
    if (named.has(name)) return;
    named.add(name);
    if (!firstAt.has(id)) firstAt.set(id, k);
  });
  cands.forEach((run, id) => {
    const last = walk.plain.get(run);
    const k = last === undefined ? owner[walk.placeOf(id)!] : (firstAt.get(last) ?? -1);
    if (k !== -1) out.set(id, tips[k][0]);
  });
  return out;
}

/**
 * The commits that decide the owners of some, by place: each one's id, and the place of the one before
 * it (-1: none). Not every commit after them: a run's commits in between, with no tip of their own and
 * one child each, go with the commit after them whatever the tips searched, so they are left out.
 */
interface Walk {
  id: number[];
  up: number[];
  placeOf(id: number): number | undefined;
  /** the refs at them and at the plain runs' last commits (full name, commit) */
  refs: [string, number][];
  /**
   * Plain runs (run → its last commit), whose commits are not in the walk: no run after them, not after
   * another run walked, and no tip but at their last. Each commit in one goes with the first tip at its last.
   */
  plain: Map<number, number>;
}

/** A run reached: its id, its last commit, the runs starting after it, and (refs read) the refs inside it (full name, commit). */
type RunRow = [number, number, number[], [string, number][]];

/**
 * The runs `ids` as RunRows, in two joins (one row per ref, then the runs after each last): the same
 * rows by subqueries per run cost half as much again at a million commits.
 */
function runRows(db: Database, ids: readonly number[], withRefs: boolean): RunRow[] {
  const out = new Map<number, RunRow>();
  const rows = withRefs
    ? jsonRows<[number, number, string | null, number | null]>(db, 'r.id, r.last, f.name, f.commit_id', 'FROM json_each(?) j JOIN runs r ON r.id = j.value LEFT JOIN refs f ON f.run = r.id', [JSON.stringify(ids)])
    : jsonRows<[number, number]>(db, 'r.id, r.last', 'FROM json_each(?) j JOIN runs r ON r.id = j.value', [JSON.stringify(ids)]);
  for (const [id, last, name, at] of rows as [number, number, string | null | undefined, number | null | undefined][]) {
    let row = out.get(id);
    if (!row) out.set(id, (row = [id, last, [], []]));
    if (name != null && at != null) row[3].push([name, at]);
  }
  const byLast = new Map<number, RunRow>();
  out.forEach((row) => byLast.set(row[1], row));
  for (const [up, id] of jsonRows<[number, number]>(db, 'k.up, k.id', 'FROM json_each(?) j JOIN runs k ON k.up = j.value', [JSON.stringify([...byLast.keys()])])) byLast.get(up)![2].push(id);
  return [...out.values()];
}

/** Levels of runs read one query each before the rest of a walk is read in one recursive query. */
const LEVELS = 64;

/**
 * The commits that decide the owners of `cands` (ownersOf): in each run at or after them, from the
 * first walked from in it (or the run's first commit, for a run after another), those commits, the tips
 * in it (the refs, or `given`), the commit after each tip that is not the run's last (its session may
 * decide), and the run's last, whose children are the first commits of the runs after it. A level of
 * runs at a time; a tree of runs deeper than LEVELS is read on in one recursive query.
 */
function walkRuns(db: Database, cands: ReadonlyMap<number, number>, given: [string, number][] | null): Walk {
  // the first commit that counts in each run: the lowest walked from, or the run's first after another's last
  const from = new Map<number, number>();
  cands.forEach((run, id) => {
    if (!(id >= (from.get(run) ?? Infinity))) from.set(run, id);
  });
  const runs = new Map<number, RunRow>();
  // the same rows for the recursive query, by subqueries (a subquery's JSON comes back as text: json() nests it)
  const refs = given ? '' : ', json((SELECT json_group_array(json_array(f.name, f.commit_id)) FROM refs f WHERE f.run = r.id))';
  const cols = `r.id, r.last, json((SELECT json_group_array(k.id) FROM runs k WHERE k.up = r.last))${refs}`;
  const take = (rows: RunRow[]): number[] => {
    const next: number[] = [];
    for (const row of rows) runs.set(row[0], row);
    for (const row of rows) for (const k of row[2]) (from.set(k, k), runs.has(k) || next.push(k));
    return next;
  };
  let frontier = [...from.keys()];
  for (let depth = 0; frontier.length > 0 && depth < LEVELS; depth++) frontier = take(runRows(db, frontier, !given));
  if (frontier.length > 0)
    take(jsonRows<RunRow>(db, cols, 'FROM d JOIN runs r ON r.id = d.id', [JSON.stringify(frontier)], 'WITH RECURSIVE d(id) AS (SELECT value FROM json_each(?) UNION SELECT k.id FROM d JOIN runs r ON r.id = d.id JOIN runs k ON k.up = r.last)'));
  // the tips in the runs walked (name, commit, run)
  const tipAt: [string, number, number][] = [];
  if (given) {
    const at = new Map(jsonRows<[number, number]>(db, 'j.value, c.run', 'FROM json_each(?) j JOIN commits c ON c.id = j.value', [JSON.stringify(given.map(([, id]) => id))]));
    for (const [name, id] of given) if (runs.has(at.get(id) ?? -1)) tipAt.push([name, id, at.get(id)!]);
  } else runs.forEach((row) => row[3].forEach(([name, id]) => tipAt.push([name, id, row[0]])));
  // plain: no run after it, and no tip but at its last (those after another's last are taken out below)
  const plain = new Map<number, number>();
  runs.forEach((row) => {
    if (row[2].length === 0 && row[3]?.every(([, id]) => id === row[1]) !== false) plain.set(row[0], row[1]);
  });
  runs.forEach((row) => row[2].forEach((k) => plain.delete(k)));
  if (given) for (const [, id, run] of tipAt) if (id !== runs.get(run)![1]) plain.delete(run);
  // the commits that count, each with its run
  const runOf = new Map<number, number>();
  runs.forEach((row) => plain.has(row[0]) || runOf.set(from.get(row[0])!, row[0]).set(row[1], row[0]));
  cands.forEach((run, id) => {
    if (!runs.has(run)) throw new IndexDamage(`it lists commit ${id} in a run it does not hold`);
    if (!plain.has(run)) runOf.set(id, run);
  });
  const inside: number[] = [];
  for (const [, id, run] of tipAt) {
    if (plain.has(run) || id < from.get(run)!) continue;
    runOf.set(id, run);
    if (id !== runs.get(run)![1]) inside.push(id);
  }
  // the commit after a tip inside a run (its one child)
  if (inside.length) for (const [id, run] of jsonRows<[number, number]>(db, 'c.id, c.run', 'FROM json_each(?) j JOIN commits c ON c.parent = j.value', [JSON.stringify([...new Set(inside)])])) runOf.set(id, run);
  // by id, which grows along a chain: each after the one before it in its run
  const id = Array.from(Float64Array.from(runOf.keys()).sort());
  const up = new Array<number>(id.length).fill(-1);
  const place = new Map<number, number>();
  const latest = new Map<number, number>();
  id.forEach((x, i) => {
    place.set(x, i);
    const run = runOf.get(x)!;
    const before = latest.get(run);
    if (before !== undefined) up[i] = before;
    latest.set(run, i);
  });
  // a run after another: its first commit comes after that one's last
  for (const row of runs.values()) for (const k of row[2]) up[place.get(k)!] = place.get(row[1])!;
  return { id, up, placeOf: (x) => place.get(x), refs: tipAt.flatMap(([name, x, run]): [string, number][] => (plain.has(run) || place.has(x) ? [[name, x]] : [])), plain };
}

/**
 * The candidates `cands` (id → run) in plain runs given their branch in `out` (the first searched, by
 * name, among the refs at the run's last, `plainAt`), those on none left out; the others returned.
 */
function byPlainRuns(db: Database, cands: ReadonlyMap<number, number>, plainAt: ReadonlyMap<number, string[]>, all: boolean, out: Map<number, string>): Map<number, number> {
  const rest = new Map<number, number>();
  const first = new Map<number, string | null>();
  const remote = db.prepare('SELECT 1 FROM refs WHERE name = ?');
  try {
    cands.forEach((run, id) => {
      const names = plainAt.get(run);
      if (names === undefined) return void rest.set(id, run);
      let branch = first.get(run);
      if (branch === undefined) {
        branch = null;
        for (const name of names) {
          const short = searchedAs(name, all, remote);
          if (short !== null && (branch === null || short < branch)) branch = short;
        }
        first.set(run, branch);
      }
      if (branch !== null) out.set(id, branch);
    });
  } finally {
    remote.finalize();
  }
  return rest;
}

/** The branch a ref (full name) is searched as, as `searchedTips` names it; null for none. */
function searchedAs(name: string, all: boolean, remote: Statement): string | null {
  if (name.startsWith(refs.heads)) {
    const short = name.slice(refs.heads.length);
    // `--all` names a remote-tracking ref and a local branch of the same name once, as the remote one (RepoContext.allTips)
    return all && remote.get([refs.remotes + short]) ? null : short;
  }
  return all && name.startsWith(refs.remotes) ? name.slice(refs.remotes.length) : null;
}

/** The branches searched among the refs `at` (full name, and a commit's id or place), by name, as `searchedTips` names them. */
function tipsNamed(db: Database, at: readonly [string, number][], all: boolean): [string, number][] {
  const out = new Map<string, number>();
  const remote = db.prepare('SELECT 1 FROM refs WHERE name = ?');
  try {
    for (const [name, id] of at) {
      const short = searchedAs(name, all, remote);
      if (short !== null) out.set(short, id);
    }
  } finally {
    remote.finalize();
  }
  return [...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The place in `tips` of the branch that owns each commit of the walk (-1: none), by `ordered`'s
 * rule: the first tip at or after it; a commit with one child after it and no tip of its own goes
 * with that child; otherwise with the first tip after a child that carries on its session, else the
 * first tip. Children are decided before parents. Kept in arrays by the commits' places: a walk is
 * tens of thousands of commits.
 */
function ownersOf(db: Database, tips: readonly [string, number][], w: Walk): Int32Array {
  const n = w.id.length;
  const count = new Int32Array(n);
  for (let i = 0; i < n; i++) if (w.up[i] !== -1) count[w.up[i]]++;
  // the children of each, kids[from[i]] to kids[from[i + 1]]
  const from = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) from[i + 1] = from[i] + count[i];
  const kids = new Int32Array(from[n]);
  const fill = from.slice(0, n);
  for (let i = 0; i < n; i++) if (w.up[i] !== -1) kids[fill[w.up[i]]++] = i;
  // children first: a commit once every child of it is done
  const order = new Int32Array(n);
  let done = 0;
  for (let i = 0; i < n; i++) if (count[i] === 0) order[done++] = i;
  for (let j = 0; j < done; j++) {
    const p = w.up[order[j]];
    if (p !== -1 && --count[p] === 0) order[done++] = p;
  }
  // each branch name once, at its first place; a commit's own first tip
  const named = new Set<string>();
  const own = new Int32Array(n).fill(-1);
  tips.forEach(([name, at], k) => {
    if (named.has(name)) return;
    named.add(name);
    if (at !== -1 && own[at] === -1) own[at] = k;
  });
  const minTip = new Int32Array(n).fill(-1);
  // commits whose owner depends on sessions (children after them with a tip, and a tip of their own or more than one such child)
  const forks: number[] = [];
  for (let j = 0; j < done; j++) {
    const i = order[j];
    let first = own[i] === -1 ? Infinity : own[i];
    let below = 0;
    for (let c = from[i]; c < from[i + 1]; c++) {
      const t = minTip[kids[c]];
      if (t === -1) continue;
      below++;
      if (t < first) first = t;
    }
    if (first === Infinity) continue;
    minTip[i] = first;
    if (below > 1 || (below === 1 && own[i] !== -1)) forks.push(i);
  }
  const session = sessionsOf(db, forks.flatMap((i) => [i, ...kids.subarray(from[i], from[i + 1])]).map((i) => w.id[i]));
  const fork = new Set(forks);
  const owner = new Int32Array(n).fill(-1);
  for (let j = 0; j < done; j++) {
    const i = order[j];
    if (minTip[i] === -1) continue;
    let to = own[i] === -1 ? -1 : minTip[i];
    if (fork.has(i)) {
      let same = Infinity;
      for (let c = from[i]; c < from[i + 1]; c++) {
        const k = kids[c];
        if (minTip[k] !== -1 && session.get(w.id[k]) === session.get(w.id[i]) && minTip[k] < same) same = minTip[k];
      }
      to = same === Infinity ? minTip[i] : same;
    } else if (to === -1) {
      // no tip of its own and one child after it: that child's owner
      for (let c = from[i]; c < from[i + 1] && to === -1; c++) if (minTip[kids[c]] !== -1) to = owner[kids[c]];
    }
    owner[i] = to;
  }
  return owner;
}

/** The session of each commit `ids`, from the commits table (null for none). */
function sessionsOf(db: Database, ids: readonly number[]): Map<number, string | null> {
  if (ids.length === 0) return new Map();
  return new Map(jsonRows<[number, string | null]>(db, 'id, session', 'FROM commits WHERE id IN (SELECT value FROM json_each(?))', [JSON.stringify([...new Set(ids)])]));
}

/** What `ctx index` reports: where the index is, whether it is there and up to date with the refs, and what it holds. */
export interface IndexStatus {
  path: string;
  exists: boolean;
  /** the refs are as it last read them (a search lists none) */
  current: boolean;
  commits: number;
  refs: number;
  bytes: number;
}

/**
 * The index's status; with `rebuild`, emptied and read again from every ref first (derived data:
 * nothing is lost). Refused with a conflict while another process holds it.
 */
export async function indexStatus(ctx: RepoContext, o: { rebuild?: boolean } = {}): Promise<IndexStatus> {
  const path = indexPath(ctx.gitdir);
  const none = { path, exists: false, current: false, commits: 0, refs: 0, bytes: 0 };
  if (!o.rebuild && !existsSync(path)) return none;
  const f = openIndex(ctx.gitdir, (t) => ctx.warn(t), { fresh: o.rebuild, preload: o.rebuild ? CATCH_UP_MODULES : [] });
  if (!f) throw new ConflictError('the search index is in use by another ctx process: try again when it is done');
  try {
    const stamp = refsStamp(ctx.gitdir);
    const current = o.rebuild ? await catchUp(ctx, f.db, stamp) : stamp !== null && metaOf(f.db, 'stamp') === stamp.all;
    const count = (table: string) => Number((f.db.get(`SELECT count(*) AS n FROM ${table}`) as { n: number }).n);
    return { path, exists: true, current, commits: count('commits'), refs: count('refs'), bytes: statSync(path).size };
  } finally {
    f.close();
  }
}

/**
 * The rows of commits no branch reaches dropped (`ctx gc` calls it: what it pruned, and what only a
 * reflog still holds, is no longer searched), after catching up with the refs; the number dropped.
 * Nothing is done without an index, while another process holds it, or when its copy of the refs is not exact.
 */
export async function pruneIndex(ctx: RepoContext): Promise<number> {
  if (!ctx.searchIndex || !existsSync(indexPath(ctx.gitdir))) return 0;
  return (await withIndex(ctx, true, async (db, exact) => (exact ? dropUnreached(db) : null))) ?? 0;
}

async function dropUnreached(db: Database): Promise<number> {
  db.exec('BEGIN');
  try {
    db.exec('CREATE TEMP TABLE dead(id INTEGER PRIMARY KEY)');
    db.run(
      `WITH RECURSIVE live(id) AS (SELECT commit_id FROM refs UNION SELECT c.parent FROM commits c JOIN live ON c.id = live.id WHERE c.parent IS NOT NULL)
       INSERT INTO dead SELECT id FROM commits WHERE id NOT IN live`,
    );
    const n = Number((db.get('SELECT count(*) AS n FROM dead') as { n: number }).n);
    if (n) {
      for (const [table, key] of [['touches', 'commit_id'], ['texts', 'rowid'], ['commits', 'id'], ['runs', 'id']]) db.run(`DELETE FROM ${table} WHERE ${key} IN (SELECT id FROM dead)`);
      // a run whose first commit is reached keeps it; one whose later commits are gone ends at its last left (ids grow along a chain)
      db.exec('CREATE TEMP TABLE ends AS SELECT run, max(id) AS last FROM commits WHERE run IN (SELECT id FROM runs WHERE last IN (SELECT id FROM dead)) GROUP BY run');
      db.exec('UPDATE runs SET last = (SELECT e.last FROM ends e WHERE e.run = runs.id) WHERE id IN (SELECT run FROM ends)');
      db.exec('DROP TABLE ends');
    }
    db.exec('DROP TABLE dead');
    settleRuns(db);
    db.exec('COMMIT');
    return n;
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}

const metaOf = (db: Database, k: string) => (db.get('SELECT v FROM meta WHERE k = ?', [k]) as { v: string } | null)?.v;

class IndexDamage extends Error {}

/** What a catch-up loads of node's own: git's processes, and its output read back from a file. */
const CATCH_UP_MODULES = ['node:child_process', 'node:fs/promises'];

/**
 * `use` run on the index brought up to date with the refs; `git`: the caller runs git afterwards, as a
 * catch-up does (index-db.ts `loadSqlite`), likely when a ref file changed after the index was last written.
 */
async function withIndex<T>(ctx: RepoContext, git: boolean, use: (db: Database, exact: boolean) => Promise<T | null>): Promise<T | null> {
  // stamped before the refs are read: a ref that moves in between makes the next stamp differ
  const stamp = refsStamp(ctx.gitdir);
  const written = statSync(indexPath(ctx.gitdir), { bigint: true, throwIfNoEntry: false })?.mtimeNs ?? -1n;
  const behind = stamp === null || stamp.newest >= written;
  const f = openIndex(ctx.gitdir, (t) => ctx.warn(t), { preload: behind ? CATCH_UP_MODULES : git ? ['node:child_process'] : [] });
  if (!f) return null;
  let broken: Error | null = null;
  try {
    return await use(f.db, await catchUp(ctx, f.db, stamp));
  } catch (e) {
    if (!(e instanceof IndexDamage) && !isSqliteError(e)) throw e;
    broken = e as Error;
    return null;
  } finally {
    f.close();
    if (broken) {
      // rebuilt on the next search; this one reads every commit
      dropIndex(ctx.gitdir);
      ctx.warn(`the search index was damaged (${broken.message}): searching without it, rebuilt next time`);
    }
  }
}

/**
 * Every ref's commits read into the index that are not there yet, and its copy of the refs brought up
 * to date. True when that copy is exact: the refs are as the index last read them (the same stamp,
 * nothing listed), or they were just read with no damaged ref and every tip held.
 */
async function catchUp(ctx: RepoContext, db: Database, stamp: ReturnType<typeof refsStamp>): Promise<boolean> {
  const meta = new Map((db.all("SELECT k, v FROM meta WHERE k IN ('tips', 'id', 'stamp', 'hint', 'whole', 'packed', 'loose')") as { k: string; v: string }[]).map((r) => [r.k, r.v]));
  if (stamp !== null && meta.get('stamp') === stamp.all) return true;
  if (stamp !== null && meta.get('packed') === stamp.packed && (await looseCatchUp(ctx, db, stamp.all, meta.get('loose')))) return true;
  const scanned = ctx.scanTips();
  // by name already (each prefix sorted, refs/heads/ before refs/remotes/): 100,000 names are not sorted again
  const now = scanned.refs;
  const digest = createHash('sha256');
  for (const [ref, oid] of now) digest.update(`${oid} ${ref}\n`);
  const seal = digest.digest('hex');
  const known = db.prepare('SELECT id, gen, run FROM commits WHERE oid = ?');
  const knownAt = (oid: string) => known.get([oid]) as Known | null;
  let exact = false;
  const hint = `${meta.get('id') ?? ''} ${meta.get('hint') ?? ''}`;
  // the copy is the refs the hint file lists, under the loose ones a loose catch-up put in since
  const sealed = meta.get('tips') === seal;
  const file = sealed ? null : readTips(ctx.gitdir, hint);
  const since = looseOf(meta.get('loose'));
  const recorded = sealed ? now : file === null ? new Map<string, string>() : since.length ? new Map([...file, ...since]) : file;
  // `whole`: the copy of the refs holds every ref read (each tip's commit was in the index)
  let whole = recorded === now && meta.get('whole') === '1';
  const next = recorded === now ? (meta.get('hint') ?? '') : randomUUID();
  try {
    const fresh = [...new Set([...now].filter(([ref, oid]) => recorded.get(ref) !== oid && !knownAt(oid)).map(([, oid]) => oid))];
    db.exec('BEGIN');
    try {
      if (fresh.length) await addCommits(ctx, db, await newCommits(ctx, fresh, knownAt), knownAt);
      if (recorded !== now) whole = putRefs(db, now, recorded, knownAt);
      exact = whole && !scanned.damaged;
      const loose = exact && stamp !== null && scanned.loose <= LOOSE_MAX ? looseRefs(ctx, stamp.all) : '';
      db.run("INSERT OR REPLACE INTO meta(k, v) VALUES ('tips', ?), ('stamp', ?), ('hint', ?), ('whole', ?), ('packed', ?), ('loose', ?)", [seal, exact && stamp !== null ? stamp.all : '', next, whole ? '1' : '0', loose && stamp!.packed, loose]);
      settleRuns(db);
      db.exec('COMMIT');
    } catch (e) {
      db.exec('ROLLBACK');
      throw e;
    }
  } finally {
    known.finalize();
  }
  if (recorded !== now) writeTips(ctx.gitdir, `${meta.get('id') ?? ''} ${next}`, now);
  return exact;
}

/** Loose refs recorded for a loose catch-up at most (as JSON in the index); with more, every change reads the refs whole. */
const LOOSE_MAX = 4096;

const looseOf = (json: string | undefined): [string, string][] => (json ? Object.entries(JSON.parse(json) as Record<string, string>) : []);

/** The loose refs as JSON, read again (few: packed-refs is not); '' when a ref file changed since `stamp` (they may not be the refs just read). */
function looseRefs(ctx: RepoContext, stamp: string): string {
  const loose = ctx.scanTips({ looseOnly: true });
  return !loose.damaged && refsStamp(ctx.gitdir)?.all === stamp ? JSON.stringify(Object.fromEntries(loose.refs)) : '';
}

/**
 * packed-refs is as it was when the refs were last read whole: only the loose refs are read, and the
 * index's copy (packed-refs then, under the loose refs recorded, `recorded`) takes those that moved.
 * False, nothing done, when that cannot tell: a loose ref gone (it may uncover a packed one), a
 * damaged one, a tip not held after reading its chain, or none recorded.
 */
async function looseCatchUp(ctx: RepoContext, db: Database, stamp: string, recorded: string | undefined): Promise<boolean> {
  if (!recorded) return false;
  const before = new Map(looseOf(recorded));
  const scanned = ctx.scanTips({ looseOnly: true });
  if (scanned.damaged || scanned.refs.size > LOOSE_MAX || [...before.keys()].some((ref) => !scanned.refs.has(ref))) return false;
  const moved = [...scanned.refs].filter(([ref, oid]) => before.get(ref) !== oid);
  const known = db.prepare('SELECT id, gen, run FROM commits WHERE oid = ?');
  const knownAt = (oid: string) => known.get([oid]) as Known | null;
  const put = db.prepare('INSERT OR REPLACE INTO refs(name, commit_id, run) VALUES (?, ?, ?)');
  db.exec('BEGIN');
  try {
    const fresh = [...new Set(moved.map(([, oid]) => oid).filter((oid) => !knownAt(oid)))];
    if (fresh.length) await addCommits(ctx, db, await newCommits(ctx, fresh, knownAt), knownAt);
    for (const [ref, oid] of moved) {
      const at = knownAt(oid);
      if (!at) {
        db.exec('ROLLBACK');
        return false;
      }
      put.run([ref, at.id, at.run]);
    }
    // the digest and the hint file no longer list the refs: the next whole read compares with the copy itself
    db.run("INSERT OR REPLACE INTO meta(k, v) VALUES ('tips', ''), ('stamp', ?), ('loose', ?)", [stamp, JSON.stringify(Object.fromEntries(scanned.refs))]);
    settleRuns(db);
    db.exec('COMMIT');
    return true;
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  } finally {
    known.finalize();
    put.finalize();
  }
}

/** The refs table made `now` (from `recorded`, what it held if the hint is believed, else from nothing); false when a tip is not held. */
function putRefs(db: Database, now: ReadonlyMap<string, string>, recorded: ReadonlyMap<string, string>, knownAt: (oid: string) => Known | null): boolean {
  if (recorded.size === 0) db.exec('DELETE FROM refs');
  const del = db.prepare('DELETE FROM refs WHERE name = ?');
  const put = db.prepare('INSERT OR REPLACE INTO refs(name, commit_id, run) VALUES (?, ?, ?)');
  let all = true;
  try {
    for (const ref of recorded.keys()) if (!now.has(ref)) del.run([ref]);
    for (const [ref, oid] of now) {
      if (recorded.get(ref) === oid) continue;
      const at = knownAt(oid);
      if (!at) (del.run([ref]), (all = false));
      else put.run([ref, at.id, at.run]);
    }
  } finally {
    del.finalize();
    put.finalize();
  }
  return all;
}

/**
 * The refs the index last read (full name → commit), kept beside it as plain lines: a hint that
 * spares looking up a tip that did not move and rewriting the index's copy of the refs whole (SQLite
 * hands 100,000 rows over in about 0.5 s of CPU, this file in a tenth of that), headed by the id of
 * the index and of the write it was made with. Missing, damaged or another's: null (every tip is
 * looked up, the copy rewritten). The digest in the index says whether it is current.
 */
function readTips(gitdir: string, head: string): Map<string, string> | null {
  const out = new Map<string, string>();
  try {
    const [first, ...lines] = readFileSync(tipsPath(gitdir), 'utf8').split('\n');
    if (/^ | $/.test(head) || first !== head) return null;
    for (const line of lines) {
      const sp = line.indexOf(' ');
      if (sp > 0) out.set(line.slice(sp + 1), line.slice(0, sp));
    }
  } catch {
    return null; // none yet
  }
  return out;
}

function writeTips(gitdir: string, head: string, tips: ReadonlyMap<string, string>): void {
  try {
    writeDerived(tipsPath(gitdir), `${head}\n`, [...tips].map(([ref, oid]) => `${oid} ${ref}\n`).join(''));
  } catch {
    // a read-only store: looked up again next time
  }
}

const tipsPath = (gitdir: string) => join(derivedDir(gitdir, 'search'), 'tips');

interface NewCommit {
  oid: string;
  parent: string | null;
}

/** The commits of the chains of `tips` the index does not hold, each with its first parent. */
async function newCommits(ctx: RepoContext, tips: readonly string[], knownAt: (oid: string) => unknown): Promise<NewCommit[]> {
  if (ctx.engine.history) return (await ctx.engine.history(tips)).filter((c) => !knownAt(c.oid));
  const out = new Map<string, NewCommit>();
  for (const tip of tips) {
    const links = await ctx.engine.chain(tip);
    for (let i = 0; i < links.length && !knownAt(links[i].oid) && !out.has(links[i].oid); i++) out.set(links[i].oid, { oid: links[i].oid, parent: links[i + 1]?.oid ?? null });
  }
  return [...out.values()];
}

/** New commits in, parents first; the searchable ones read for their text and the files their tool calls touched. */
async function addCommits(ctx: RepoContext, db: Database, commits: NewCommit[], knownAt: (oid: string) => Known | null): Promise<void> {
  const byOid = new Map(commits.map((c) => [c.oid, c]));
  const gen = new Map<string, number>();
  const genOf = (start: string): number => {
    // iteratively: a chain may be longer than the stack is deep
    const path: string[] = [];
    let at: string | null = start;
    let base = -1;
    while (at !== null && !gen.has(at)) {
      const c = byOid.get(at);
      if (!c) {
        base = knownAt(at)?.gen ?? -1;
        break;
      }
      path.push(at);
      at = c.parent;
    }
    if (at !== null && gen.has(at)) base = gen.get(at)!;
    for (let i = path.length - 1; i >= 0; i--) gen.set(path[i], ++base);
    return gen.get(start)!;
  };
  commits.forEach((c) => genOf(c.oid));
  const order = [...commits].sort((a, b) => gen.get(a.oid)! - gen.get(b.oid)!);
  const ids = new Map<string, number>();
  // ids given here, not by SQLite: a commit's run is named by its first commit, often the commit itself
  let next = Number((db.get('SELECT ifnull(max(id), 0) + 1 AS n FROM commits') as { n: number }).n);
  const put = db.prepare('INSERT INTO commits(id, oid, parent, gen, session, run) VALUES (?, ?, ?, ?, ?, ?)');
  const runs = runKeeper(db);
  const text = db.prepare('INSERT INTO texts(rowid, body) VALUES (?, ?)');
  // the commit's run as it is now: a later commit of the same slice may have split it since the commit went in
  const touch = db.prepare('INSERT INTO touches(commit_id, entry, name, path, tool, action, at, session, oid, gen, run) VALUES (?1, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT run FROM commits WHERE id = ?1))');
  const tools = await toolReader();
  try {
    // a slice at a time, parents first: a whole store's commits are not held in memory at once
    for (let from = 0; from < order.length; from += SLICE) {
      const slice = order.slice(from, from + SLICE);
      const links = await linksOf(ctx, slice.map((c) => c.oid));
      const cands: Candidate[] = [];
      const parents: (string | null)[] = [];
      slice.forEach((c, i) => {
        const l = links[i];
        if (!l) throw new CtxError(`${c.oid.slice(0, 12)} is not a commit the store can read: run ctx verify`);
        const parent = c.parent === null ? null : (ids.get(c.parent) ?? knownAt(c.parent)?.id ?? null);
        const id = next++;
        put.run([id, c.oid, parent, gen.get(c.oid)!, trailer(l.message, 'Ctx-Session') ?? null, runs.place(id, parent)]);
        ids.set(c.oid, id);
        const cand = candidateOf(l, '');
        if (searchable(cand, l.message)) (cands.push(cand), parents.push(l.parent));
      });
      await withParents(ctx, cands, parents);
      for await (const c of scanListed(ctx, cands, () => true, true)) {
        const id = ids.get(c.oid)!;
        const parts: string[] = [];
        for (let entry = c.from; entry < c.messages.length; entry++) {
          const m = c.messages[entry];
          for (const b of m.content) {
            const t = blockText(b);
            if (t !== null) parts.push(t);
            if (b.type !== 'tool_call') continue;
            for (const e of tools.effects(c.meta!.format, b)) {
              const name = components(e.path).at(-1);
              // what `files` reports of it, kept only where its walk would look (the name in the artifact's bytes)
              if (name !== undefined && fileNamed(name)(c.bytes)) touch.run([id, entry, name, e.path, b.name, e.action, m.timestamp ?? c.meta!.created_at, c.meta!.session_id, c.oid, gen.get(c.oid)!]);
            }
          }
        }
        text.run([id, parts.join('\n')]);
      }
    }
  } finally {
    for (const st of [put, text, touch]) st.finalize();
    runs.finalize();
  }
}

/**
 * Each run a write changed (its last, the runs after it, the refs in it: the triggers in index-db.ts
 * list it as unsettled) told again whether it is plain: no run after it and no ref in it but at its
 * last. A plain run keeps the refs at its last (a JSON list of full names), so `files` gives its
 * commits a branch without walking it; any other keeps NULL.
 */
function settleRuns(db: Database): void {
  db.exec(`UPDATE runs SET plain = CASE WHEN EXISTS (SELECT 1 FROM runs k WHERE k.up = runs.last) OR EXISTS (SELECT 1 FROM refs f WHERE f.run = runs.id AND f.commit_id <> runs.last) THEN NULL
    ELSE (SELECT json_group_array(f.name) FROM refs f WHERE f.run = runs.id) END WHERE id IN (SELECT id FROM unsettled)`);
  db.exec('DELETE FROM unsettled');
}

/** A commit in the index: its id, generation and run. */
interface Known {
  id: number;
  gen: number;
  run: number;
}

/**
 * Each commit's run kept as commits come in, parents first. A run is a stretch of a chain without
 * forks, named by its first commit: each of its commits but the last has one child, the next of the
 * run; `up` is the parent of its first commit (the last of another run, or none). A child of a run's
 * last that has no other child carries the run on (one row changed); a child of a commit with
 * children starts a run of its own, and a child of a commit inside a run first splits that run there
 * (the commits after it, and the refs and touch rows at them, moved to a new run: the only write that grows with a chain).
 */
function runKeeper(db: Database): { place(id: number, parent: number | null): number; finalize(): void } {
  const at = db.prepare('SELECT c.run AS run, r.last AS last FROM commits c JOIN runs r ON r.id = c.run WHERE c.id = ?');
  const forked = db.prepare('SELECT 1 FROM runs WHERE up = ? LIMIT 1');
  const start = db.prepare('INSERT INTO runs(id, up, last) VALUES (?, ?, ?)');
  const end = db.prepare('UPDATE runs SET last = ? WHERE id = ?');
  // the commits of run ?2 after ?1 (inside a run each has one child in it)
  const after = db.prepare(
    'WITH RECURSIVE t(id) AS (SELECT id FROM commits WHERE parent = ?1 AND run = ?2 UNION ALL SELECT c.id FROM t JOIN commits c ON c.parent = t.id WHERE c.run = ?2) SELECT json_group_array(id) AS ids FROM t',
  );
  const move = db.prepare('UPDATE commits SET run = ?1 WHERE id IN (SELECT value FROM json_each(?2))');
  const moveRefs = db.prepare('UPDATE refs SET run = ?1 WHERE commit_id IN (SELECT value FROM json_each(?2))');
  const moveTouches = db.prepare('UPDATE touches SET run = ?1 WHERE commit_id IN (SELECT value FROM json_each(?2))');
  return {
    place(id, parent) {
      if (parent !== null) {
        const r = at.get([parent]) as { run: number; last: number } | null;
        if (!r) throw new IndexDamage(`commit ${parent} has no run`);
        if (r.last === parent) {
          if (!forked.get([parent])) return (end.run([id, r.run]), r.run);
        } else {
          const tail = (after.get([parent, r.run]) as { ids: string }).ids;
          const first = (JSON.parse(tail) as number[])[0];
          if (first === undefined) throw new IndexDamage(`run ${r.run} does not reach its last commit`);
          start.run([first, parent, r.last]);
          end.run([parent, r.run]);
          move.run([first, tail]);
          moveRefs.run([first, tail]);
          moveTouches.run([first, tail]);
        }
      }
      start.run([id, parent, id]);
      return id;
    },
    finalize: () => [at, forked, start, end, after, move, moveRefs, moveTouches].forEach((st) => st.finalize()),
  };
}

/** Commits read from the store at a time while indexing. */
const SLICE = 8192;

interface Listed {
  id: number;
  oid: string;
  parent: string | null;
  branch: string;
}

/**
 * The rows of `SELECT cols rest` as arrays, handed over as one JSON text: the WebAssembly package
 * fetches each column of each row by a call of its own, which for thousands of rows cost more than the query.
 */
function jsonRows<T extends unknown[]>(db: Database, cols: string, rest: string, params: (string | number)[], with_ = ''): T[] {
  const row = db.get(`${with_} SELECT json_group_array(json_array(${cols})) AS j ${rest}`, params) as { j: string };
  return JSON.parse(row.j) as T[];
}

type Row = { id: number; oid: string; parent: number | null; gen: number; session: string | null; parent_oid: string | null };

/**
 * The index's candidates for `q` on the chains searched, in the chain walk's order (`owned`); null
 * when a tip given is not in the index.
 */
function listed_(db: Database, searched: Searched, q: IndexQuery): Listed[] | null {
  if (!tipsHeld(db, searched)) return null;
  const ids =
    'text' in q
      ? jsonRows<[number]>(db, 'rowid', 'FROM texts WHERE texts MATCH ?', [`"${q.text.replace(/"/g, '""')}"`])
      : jsonRows<[number]>(db, 'commit_id', 'FROM (SELECT DISTINCT commit_id FROM touches WHERE name = ?)', [q.name]);
  return owned(db, searched, ids.map((r) => r[0]));
}

/** Whether the index holds every tip given (every branch: its copy of the refs holds them). */
function tipsHeld(db: Database, searched: Searched): boolean {
  if (typeof searched === 'string') return true;
  const known = db.prepare('SELECT 1 FROM commits WHERE oid = ?');
  try {
    return searched.every(([, oid]) => known.get([oid]));
  } finally {
    known.finalize();
  }
}

/**
 * The commits `ids` on the chains searched, in the chain walk's order: branch by branch in search
 * order, newest first, each on the branch that wrote it (scan.ts `writers`); those no tip searched
 * holds left out. Every branch (`heads`, `all`) comes from the index's exact copy of the refs, only
 * those whose tips sit at or after one of `ids`.
 */
function owned(db: Database, searched: Searched, ids: readonly number[]): Listed[] {
  if (ids.length === 0) return [];
  // the candidates and every commit after them, with their parents' ids: where the tips are, and which chains hold each
  const rows = jsonRows<[number, string, number | null, number, string | null, string | null]>(
    db,
    'c.id, c.oid, c.parent, c.gen, c.session, p.oid',
    'FROM d JOIN commits c ON c.id = d.id LEFT JOIN commits p ON p.id = c.parent',
    [JSON.stringify(ids)],
    'WITH RECURSIVE d(id) AS (SELECT value FROM json_each(?) UNION SELECT c.id FROM commits c JOIN d ON c.parent = d.id)',
  ).map(([id, oid, parent, gen, session, parent_oid]): Row => ({ id, oid, parent, gen, session, parent_oid }));
  const tips = typeof searched === 'string' ? refsAt(db, rows, searched === 'all') : searched;
  return ordered(tips, rows, new Set(ids));
}

/** The branches (name → tip, by name) of the index's copy of the refs whose tips are among `rows`, as `searchedTips` names them. */
function refsAt(db: Database, rows: Row[], all: boolean): [string, string][] {
  const oidOf = new Map(rows.map((r) => [r.id, r.oid]));
  const at = jsonRows<[string, number]>(db, 'name, commit_id', 'FROM refs WHERE commit_id IN (SELECT value FROM json_each(?))', [JSON.stringify([...oidOf.keys()])]);
  return tipsNamed(db, at, all).map(([name, id]) => [name, oidOf.get(id)!]);
}

/** The owners and order of the candidates among `rows` (they and their descendants), as the chain walk would give them. */
function ordered(tips: readonly [string, string][], rows: Row[], wanted: Set<number>): Listed[] {
  // each branch name once, at its first place
  const firstAt = new Map<string, number>();
  const tipsAt = new Map<string, number[]>();
  tips.forEach(([name, oid], k) => {
    if (firstAt.has(name)) return;
    firstAt.set(name, k);
    tipsAt.set(oid, [...(tipsAt.get(oid) ?? []), k]);
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const kids = new Map<number, number[]>();
  for (const r of rows) if (r.parent !== null && byId.has(r.parent)) kids.set(r.parent, [...(kids.get(r.parent) ?? []), r.id]);
  // children before parents: the first tip below each commit, then the branch that wrote it
  const minTip = new Map<number, number>();
  const owner = new Map<number, number>();
  for (const r of [...rows].sort((a, b) => b.gen - a.gen)) {
    const own = tipsAt.get(r.oid) ?? [];
    const below = (kids.get(r.id) ?? []).filter((k) => minTip.has(k));
    const first = Math.min(...own, ...below.map((k) => minTip.get(k)!));
    if (!Number.isFinite(first)) continue;
    minTip.set(r.id, first);
    if (own.length === 0 && below.length === 1) owner.set(r.id, owner.get(below[0])!);
    else {
      const same = below.filter((k) => byId.get(k)!.session === r.session).map((k) => minTip.get(k)!);
      owner.set(r.id, same.length ? Math.min(...same) : first);
    }
  }
  return rows
    .filter((r) => wanted.has(r.id) && owner.has(r.id))
    .sort((a, b) => owner.get(a.id)! - owner.get(b.id)! || b.gen - a.gen)
    .map((r) => ({ id: r.id, oid: r.oid, parent: r.parent_oid, branch: tips[owner.get(r.id)!][0] }));
}
