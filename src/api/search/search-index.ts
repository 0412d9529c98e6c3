// The search index: derived data that narrows `grep` and `files` to the commits that may hold what
// is looked for. It holds every context commit of every branch (local and remote-tracking) once: its
// first parent and generation (to order and attribute hits as the chain walk does, search.md), the
// text grep searches (FTS5 trigrams, case folded: a superset of the commits holding a literal) and
// the names of the files its tool calls touched. Writers do nothing: a search first catches up with
// the refs (only commits it has not read; context commits never change). What it answers is a list
// of commits read again from the store and checked there, so a damaged file can lose or add
// candidates but never put text on screen that is not in the store.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'node-sqlite3-wasm';
import { blockText } from '../../core/grep-match.js';
import { components } from '../../core/path-match.js';
import { CtxError } from '../../errors/index.js';
import { derivedDir, writeDerived } from '../../store/derived.js';
import { trailer } from '../read/context-reader.js';
import type { RepoContext } from '../repo/repo-context.js';
import { dropIndex, isSqliteError, openIndex } from './index-db.js';
import { toolReader } from './effects.js';
import { candidateOf, linksOf, scanListed, searchable, withParents, type Candidate } from './scan.js';

/** What the index narrows by: text every hit holds (a literal of 3 characters or more), or the last component of a path touched. */
export type IndexQuery = { text: string } | { name: string };

/**
 * The searchable commits of the chains of `tips` (name → commit, in search order) that may hold a
 * match of `q`, each with the branch it is searched on, in the order the chain walk reads them; null
 * when the index cannot answer (busy, disabled, a tip it does not hold, found damaged).
 */
export async function indexedCandidates(ctx: RepoContext, tips: readonly [string, string][], q: IndexQuery): Promise<Candidate[] | null> {
  return withIndex(ctx, async (db, now) => {
    const listed = await listed_(db, tips, now, q);
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

class IndexDamage extends Error {}

async function withIndex<T>(ctx: RepoContext, use: (db: Database, now: ReadonlyMap<string, string>) => Promise<T | null>): Promise<T | null> {
  const f = openIndex(ctx.gitdir, (t) => ctx.warn(t));
  if (!f) return null;
  let broken: Error | null = null;
  try {
    return await use(f.db, await catchUp(ctx, f.db));
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

/** Every ref's commits read into the index that are not there yet; the refs as they were read (name → commit). */
async function catchUp(ctx: RepoContext, db: Database): Promise<Map<string, string>> {
  const now = new Map([...ctx.allTips(true)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const digest = createHash('sha256');
  for (const [ref, oid] of now) digest.update(`${oid} ${ref}\n`);
  const seal = digest.digest('hex');
  const meta = new Map((db.all("SELECT k, v FROM meta WHERE k IN ('tips', 'id')") as { k: string; v: string }[]).map((r) => [r.k, r.v]));
  if (meta.get('tips') === seal) return now;
  const id = meta.get('id') ?? '';
  const recorded = readTips(ctx.gitdir, id);
  const known = db.prepare('SELECT id, gen FROM commits WHERE oid = ?');
  const knownAt = (oid: string) => known.get([oid]) as { id: number; gen: number } | null;
  try {
    const fresh = [...new Set([...now].filter(([ref, oid]) => recorded.get(ref) !== oid && !knownAt(oid)).map(([, oid]) => oid))];
    db.exec('BEGIN');
    try {
      if (fresh.length) await addCommits(ctx, db, await newCommits(ctx, fresh, knownAt), knownAt);
      db.run("INSERT OR REPLACE INTO meta(k, v) VALUES ('tips', ?)", [seal]);
      db.exec('COMMIT');
    } catch (e) {
      db.exec('ROLLBACK');
      throw e;
    }
  } finally {
    known.finalize();
  }
  writeTips(ctx.gitdir, id, now);
  return now;
}

/**
 * The refs the index last read (name → commit), kept beside it as plain lines: a hint that spares
 * looking up a tip that did not move (SQLite hands 100,000 rows over in about 0.5 s of CPU, this
 * file in a tenth of that), headed by the id of the index it was written for. Missing, damaged or
 * another index's: every tip is looked up. The digest in the index says whether it is current.
 */
function readTips(gitdir: string, id: string): Map<string, string> {
  const out = new Map<string, string>();
  try {
    const [head, ...lines] = readFileSync(tipsPath(gitdir), 'utf8').split('\n');
    if (id === '' || head !== id) return out;
    for (const line of lines) {
      const sp = line.indexOf(' ');
      if (sp > 0) out.set(line.slice(sp + 1), line.slice(0, sp));
    }
  } catch {
    // none yet
  }
  return out;
}

function writeTips(gitdir: string, id: string, tips: ReadonlyMap<string, string>): void {
  try {
    writeDerived(tipsPath(gitdir), `${id}\n`, [...tips].map(([ref, oid]) => `${oid} ${ref}\n`).join(''));
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
async function addCommits(ctx: RepoContext, db: Database, commits: NewCommit[], knownAt: (oid: string) => { id: number; gen: number } | null): Promise<void> {
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
  const put = db.prepare('INSERT INTO commits(oid, parent, gen, session) VALUES (?, ?, ?, ?)');
  const text = db.prepare('INSERT INTO texts(rowid, body) VALUES (?, ?)');
  const touch = db.prepare('INSERT INTO touches(commit_id, entry, name, path, tool, action) VALUES (?, ?, ?, ?, ?, ?)');
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
        ids.set(c.oid, Number(put.run([c.oid, parent, gen.get(c.oid)!, trailer(l.message, 'Ctx-Session') ?? null]).lastInsertRowid));
        const cand = candidateOf(l, '');
        if (searchable(cand, l.message)) (cands.push(cand), parents.push(l.parent));
      });
      await withParents(ctx, cands, parents);
      for await (const c of scanListed(ctx, cands, () => true, true)) {
        const id = ids.get(c.oid)!;
        const parts: string[] = [];
        for (let entry = c.from; entry < c.messages.length; entry++)
          for (const b of c.messages[entry].content) {
            const t = blockText(b);
            if (t !== null) parts.push(t);
            if (b.type !== 'tool_call') continue;
            for (const e of tools.effects(c.meta!.format, b)) {
              const name = components(e.path).at(-1);
              if (name !== undefined) touch.run([id, entry, name, e.path, b.name, e.action]);
            }
          }
        text.run([id, parts.join('\n')]);
      }
    }
  } finally {
    for (const st of [put, text, touch]) st.finalize();
  }
}

/** Commits read from the store at a time while indexing. */
const SLICE = 8192;

interface Listed {
  oid: string;
  parent: string | null;
  branch: string;
}

/**
 * The index's candidates for `q` on the chains of `tips`, in the chain walk's order: branch by branch
 * in `tips` order, newest first, each commit on the branch that wrote it (scan.ts `writers`); null
 * when a tip is not in the index.
 */
async function listed_(db: Database, tips: readonly [string, string][], now: ReadonlyMap<string, string>, q: IndexQuery): Promise<Listed[] | null> {
  const known = db.prepare('SELECT 1 FROM commits WHERE oid = ?');
  try {
    for (const [name, oid] of tips) if (now.get(name) !== oid && !known.get([oid])) return null;
  } finally {
    known.finalize();
  }
  const ids =
    'text' in q
      ? (db.all('SELECT rowid AS id FROM texts WHERE texts MATCH ?', [`"${q.text.replace(/"/g, '""')}"`]) as { id: number }[])
      : (db.all('SELECT DISTINCT commit_id AS id FROM touches WHERE name = ?', [q.name]) as { id: number }[]);
  if (ids.length === 0) return [];
  // the candidates and every commit after them: where the tips are, and which chains hold each
  const rows = db.all(
    `WITH RECURSIVE d(id) AS (SELECT value FROM json_each(?) UNION SELECT c.id FROM commits c JOIN d ON c.parent = d.id)
     SELECT c.id, c.oid, c.parent, c.gen, c.session, p.oid AS parent_oid FROM d JOIN commits c ON c.id = d.id LEFT JOIN commits p ON p.id = c.parent`,
    [JSON.stringify(ids.map((r) => r.id))],
  ) as { id: number; oid: string; parent: number | null; gen: number; session: string | null; parent_oid: string | null }[];
  return ordered(tips, rows, new Set(ids.map((r) => r.id)));
}

/** The owners and order of the candidates among `rows` (they and their descendants), as the chain walk would give them. */
function ordered(tips: readonly [string, string][], rows: { id: number; oid: string; parent: number | null; gen: number; session: string | null; parent_oid: string | null }[], wanted: Set<number>): Listed[] {
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
    .map((r) => ({ oid: r.oid, parent: r.parent_oid, branch: tips[owner.get(r.id)!][0] }));
}
