// The search index's file: SQLite (node-sqlite3-wasm, WebAssembly with file access, FTS5's trigram
// tokenizer) at <gitdir>/ctx/search/index.sqlite. Derived data: never pushed or fetched, dropped and
// rebuilt when missing, old, unreadable or found lying; held under a lock file while in use, so two
// processes never write it at once (the WebAssembly VFS has no file locks of its own).
import { randomUUID } from 'node:crypto';
import { closeSync, constants, lstatSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { dirname, join } from 'node:path';
import type { Database } from 'node-sqlite3-wasm';
import { VERSION } from '../../core/version.js';
import { CtxError } from '../../errors/index.js';
import { derivedDir } from '../../store/derived.js';

/** Bumped when the tables or what goes in them change: an index of another schema or ctx version is rebuilt. */
const SCHEMA = '7';

const TABLES = `
CREATE TABLE meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE commits(id INTEGER PRIMARY KEY, oid TEXT NOT NULL UNIQUE, parent INTEGER, gen INTEGER NOT NULL, session TEXT, run INTEGER NOT NULL);
CREATE INDEX commits_parent ON commits(parent);
CREATE TABLE runs(id INTEGER PRIMARY KEY, up INTEGER, last INTEGER NOT NULL, plain TEXT);
CREATE INDEX runs_up ON runs(up);
CREATE TABLE unsettled(id INTEGER PRIMARY KEY);
CREATE VIRTUAL TABLE texts USING fts5(body, tokenize = "trigram");
CREATE TABLE touches(commit_id INTEGER NOT NULL, entry INTEGER NOT NULL, name TEXT NOT NULL, path TEXT NOT NULL, tool TEXT NOT NULL, action TEXT NOT NULL, at TEXT NOT NULL, session TEXT NOT NULL, oid TEXT NOT NULL, gen INTEGER NOT NULL, run INTEGER NOT NULL);
CREATE INDEX touches_commit ON touches(commit_id);
CREATE INDEX touches_name ON touches(name, commit_id, entry, path, tool, action, at, session, oid, gen, run);
CREATE TABLE refs(name TEXT PRIMARY KEY, commit_id INTEGER NOT NULL, run INTEGER NOT NULL);
CREATE INDEX refs_commit ON refs(commit_id, name);
CREATE INDEX refs_run ON refs(run, commit_id, name);
CREATE TRIGGER refs_in BEFORE INSERT ON refs BEGIN INSERT OR IGNORE INTO unsettled SELECT run FROM refs WHERE name = NEW.name; INSERT OR IGNORE INTO unsettled VALUES (NEW.run); END;
CREATE TRIGGER refs_out AFTER DELETE ON refs BEGIN INSERT OR IGNORE INTO unsettled VALUES (OLD.run); END;
CREATE TRIGGER refs_moved AFTER UPDATE ON refs BEGIN INSERT OR IGNORE INTO unsettled VALUES (OLD.run), (NEW.run); END;
CREATE TRIGGER runs_in AFTER INSERT ON runs BEGIN INSERT OR IGNORE INTO unsettled VALUES (NEW.id); END;
CREATE TRIGGER runs_end AFTER UPDATE OF last ON runs BEGIN INSERT OR IGNORE INTO unsettled VALUES (NEW.id); END;
CREATE TRIGGER runs_out AFTER DELETE ON runs BEGIN INSERT OR IGNORE INTO unsettled SELECT run FROM commits WHERE id = OLD.up; END;
`;

export interface IndexFile {
  db: Database;
  /** where it is, for notes */
  path: string;
  close(): void;
}

/** The index's path: `<gitdir>/ctx/search/index.sqlite` (its directories checked: no link is followed). */
export function indexPath(gitdir: string): string {
  return join(derivedDir(gitdir, 'search'), 'index.sqlite');
}

/** The index and its journal (SQLite's own lock is the directory `<path>.lock`; ctx's, `index.lock` beside them). */
const besides = (path: string) => [path, `${path}-journal`];
const ourLock = (path: string) => join(dirname(path), 'index.lock');

/** Delete the index (rebuilt on the next search); true when there was one. */
export function dropIndex(gitdir: string): boolean {
  const path = join(gitdir, 'ctx', 'search', 'index.sqlite');
  let had = false;
  for (const p of besides(path)) {
    try {
      lstatSync(p);
      had = true;
      rmSync(p, { force: true });
    } catch {
      // none there
    }
  }
  return had;
}

/**
 * The index opened under its lock (`fresh`: emptied first), its tables made when new; null when another process holds the
 * lock (the caller searches without it). A file of another schema or version, or one SQLite cannot
 * read, is deleted and started afresh (`note` says so in one line). A link in its place is refused.
 */
export function openIndex(gitdir: string, note: (text: string) => void, o: { fresh?: boolean; preload?: readonly string[] } = {}): IndexFile | null {
  const path = indexPath(gitdir);
  for (const p of besides(path)) refuseLink(p);
  const unlock = lock(ourLock(path));
  if (!unlock) return null;
  try {
    // ours is held: a lock SQLite left was left by a process that died in a write
    rmSync(`${path}.lock`, { recursive: true, force: true });
    const { Database } = loadSqlite(o.preload ?? []);
    let db: Database | undefined;
    try {
      // `fresh`: started afresh under the lock (ctx index rebuild)
      db = o.fresh ? create(path) : new Database(path);
      // another version's index may lack what this one reads (a format it did not know): started afresh
      if (!current(db)) {
        db.close();
        db = create(path);
      }
    } catch (e) {
      if (!isSqliteError(e)) throw e;
      note(`the search index could not be read (${(e as Error).message}): rebuilt`);
      if (db?.isOpen) db.close();
      db = create(path);
    }
    const open = db;
    // ctx's lock is held: SQLite's own (a directory made and removed around each statement) once for all
    open.exec('PRAGMA locking_mode = EXCLUSIVE');
    // a search reads rows spread over the file (its candidates' commits): its large pages held once read, up to 64 MiB
    open.exec('PRAGMA cache_size = -65536');
    return { db: open, path, close: () => (open.isOpen && open.close(), unlock()) };
  } catch (e) {
    unlock();
    throw e;
  }
}

function refuseLink(p: string): void {
  let link = false;
  try {
    link = lstatSync(p).isSymbolicLink();
  } catch {
    // none there
  }
  if (link) throw new CtxError(`${p} is a symbolic link: ctx keeps no search index through it (remove it, or search with --no-index)`);
}

/** Whether the file is an index of this schema and version (a new, empty file is not); a file SQLite cannot read throws. */
function current(db: Database): boolean {
  let rows: { k: string; v: string }[];
  try {
    rows = db.all('SELECT k, v FROM meta') as { k: string; v: string }[];
  } catch (e) {
    if (isSqliteError(e) && /^no such table/.test((e as Error).message)) return false;
    throw e;
  }
  const m = new Map(rows.map((r) => [r.k, r.v]));
  return m.get('schema') === SCHEMA && m.get('ctx') === VERSION;
}

function create(path: string): Database {
  for (const p of besides(path)) rmSync(p, { force: true });
  const { Database } = loadSqlite([]);
  const db = new Database(path);
  // large pages: a search's few thousand rows spread over the file are read in a few hundred calls through the WebAssembly file layer, not thousands
  db.exec('PRAGMA page_size = 65536');
  db.exec(TABLES);
  // `id` names this file: the refs hint beside it (search-index.ts) is only believed for the file it was written for
  db.run('INSERT INTO meta(k, v) VALUES (?, ?), (?, ?), (?, ?)', ['schema', SCHEMA, 'ctx', VERSION, 'id', randomUUID()]);
  return db;
}

/** The lock file made (O_EXCL, never through a link), with our pid; one left by a process that is gone is taken over. */
function lock(file: string): (() => void) | null {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !stale(file)) return null;
      rmSync(file, { force: true });
    }
  }
  return null;
}

function stale(file: string): boolean {
  try {
    if (lstatSync(file).isSymbolicLink()) return true;
    const pid = Number(readFileSync(file, 'utf8'));
    if (!Number.isSafeInteger(pid) || pid <= 0) return true;
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/**
 * The package, loaded when an index is opened (it compiles its WebAssembly on load): never by the hook
 * or `--version`. `preload`: node's own modules the caller uses afterwards, loaded first.
 */
function loadSqlite(preload: readonly string[]): typeof import('node-sqlite3-wasm') {
  const require = createRequire(import.meta.url);
  // once a V8 flag is set, node compiles its own modules without their code cache: child_process (and
  // the five modules it brings) cost 11-17 ms of CPU after the flag, 5 before it
  for (const m of preload) require(m);
  // V8's baseline compiler only: a search runs a few queries, and optimising SQLite's WebAssembly
  // in the background cost three times the CPU of the search itself (docs/search.md)
  setFlagsFromString('--liftoff-only');
  return require('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm');
}

/** An error SQLite raised: the file is damaged, or not a database at all. */
export const isSqliteError = (e: unknown): boolean => e instanceof Error && e.name === 'SQLite3Error';
