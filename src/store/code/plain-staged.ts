// What a commit stages (the index against HEAD) read in-process for the plain case, exactly as
// stagedChanges parses `git diff --cached -U0 --no-renames` (repo.ts): the commit hook then starts no
// git. The index (GIT_INDEX_FILE honoured: `git commit -a`'s temporary one) is read whole and checked
// against its checksum; a directory whose cache-tree entry matches HEAD's tree is skipped unread. Any
// case git could answer differently gives null and the caller asks git: another index version, a
// split or sparse index, a conflict, intent-to-add or skip-worktree entries, symbolic links and
// submodules, a type change, attributes that might apply, a `diff.*` setting, an object that is not
// loose, and a change whose removed and added lines share one (where git's diff algorithm chooses
// which lines it pairs).
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readLoose } from '../loose-objects.js';
import { parseCommit, parseTree } from '../objects.js';
import type { PlainDirs } from './plain.js';

/** A staged file and the lines the commit adds to it and takes out of it. */
export interface StagedChange {
  path: string;
  added: string[];
  removed: string[];
}

/** An index larger than this is left to git. */
const MAX_INDEX = 16 * 1024 * 1024;
/** git's buffer_is_binary: a NUL in the first 8,000 bytes. */
const FIRST_FEW_BYTES = 8000;
const FILE_MODES = new Set(['100644', '100755']);

class AskGit extends Error {}
/** Stops the in-process read: git is asked. */
const ask = (): never => {
  throw new AskGit();
};

interface IndexEntry {
  path: string;
  mode: string;
  oid: string;
}

interface CacheTree {
  /** the directory's tree id, when its entry is valid */
  oid?: string;
  children: Map<string, CacheTree>;
}

/**
 * The staged changes against `head` (null: unborn) as `git diff --cached -U0` gives them to
 * parseChanges: each text file added, changed or deleted with its added and removed lines (a binary
 * file, an empty one added or deleted, and a change of mode alone are not listed); null: ask git.
 */
export function plainStaged(dirs: PlainDirs, top: string, head: string | null, env: NodeJS.ProcessEnv): StagedChange[] | null {
  if (['GIT_ATTR_SOURCE', 'GIT_DIFF_OPTS', 'GIT_EXTERNAL_DIFF'].some((k) => env[k] !== undefined)) return null;
  try {
    if (attributesFiles(dirs, env).some(exists)) return null;
    const { entries, tree } = readIndex(env.GIT_INDEX_FILE !== undefined ? resolve(top, env.GIT_INDEX_FILE) : join(dirs.gitdir, 'index'));
    let headTree: string | null = null;
    if (head !== null) {
      const c = readLoose(dirs.common, head);
      if (c?.type !== 'commit') return null;
      headTree = parseCommit(c.data).tree;
    }
    const changes: StagedChange[] = [];
    walk(dirs.common, top, '', headTree, tree, entries, changes);
    return changes;
  } catch {
    // AskGit, or a file that could not be read as expected: git says what it makes of it
    return null;
  }
}

const exists = (p: string) => lstatSync(p, { throwIfNoEntry: false }) !== undefined;

/** The attributes files git reads besides the work tree's `.gitattributes` (core.attributesFile is a config key: plainConfig's diffRules). */
function attributesFiles({ common }: PlainDirs, env: NodeJS.ProcessEnv): string[] {
  const files = [join(common, 'info', 'attributes')];
  if (!/^(1|true|yes|on)$/i.test(env.GIT_ATTR_NOSYSTEM ?? '')) files.push('/etc/gitattributes');
  if (env.XDG_CONFIG_HOME) files.push(join(env.XDG_CONFIG_HOME, 'git', 'attributes'));
  else if (env.HOME) files.push(join(env.HOME, '.config', 'git', 'attributes'));
  return files;
}

/** The index's stage-0 entries (path order) and its cache tree; AskGit for anything but a plain version 2 or 3 index. */
function readIndex(path: string): { entries: IndexEntry[]; tree: CacheTree | undefined } {
  const st = lstatSync(path);
  if (!st.isFile() || st.size > MAX_INDEX || st.size < 32) ask();
  const buf = readFileSync(path);
  const body = buf.subarray(0, buf.length - 20);
  const sum = buf.subarray(buf.length - 20);
  // an all-zero checksum (index.skipHash) is not checked by git either: left to it
  if (sum.every((b) => b === 0) || !createHash('sha1').update(body).digest().equals(sum)) ask();
  if (body.toString('latin1', 0, 4) !== 'DIRC') ask();
  const version = body.readUInt32BE(4);
  if (version !== 2 && version !== 3) ask();
  const count = body.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let at = 12;
  for (let i = 0; i < count; i++) {
    const mode = body.readUInt32BE(at + 24);
    const oid = body.toString('hex', at + 40, at + 60);
    const flags = body.readUInt16BE(at + 60);
    const name = at + 62;
    // an extended entry (intent-to-add, skip-worktree) is git's to judge
    if (flags & 0x4000) ask();
    const nul = body.indexOf(0, name);
    if (nul < 0) ask();
    if ((flags >> 12) & 3) ask();
    const modeText = mode.toString(8);
    if (!FILE_MODES.has(modeText)) ask();
    entries.push({ path: body.toString('utf8', name, nul), mode: modeText, oid });
    // the entry and its name padded with 1 to 8 NULs to a multiple of 8 bytes
    at += (nul - at + 8) & ~7;
  }
  let tree: CacheTree | undefined;
  while (at + 8 <= body.length) {
    const sig = body.toString('latin1', at, at + 4);
    const size = body.readUInt32BE(at + 4);
    const data = body.subarray(at + 8, at + 8 + size);
    // a split index or a sparse one holds entries elsewhere or folded
    if (sig === 'link' || sig === 'sdir') ask();
    if (sig === 'TREE') tree = readCacheTree(data, { at: 0 });
    at += 8 + size;
  }
  return { entries, tree };
}

/** The TREE extension: `name NUL count SP subtrees LF [oid]`, depth first. */
function readCacheTree(data: Buffer, pos: { at: number }): CacheTree & { name: string } {
  const nul = data.indexOf(0, pos.at);
  const lf = data.indexOf(10, nul);
  if (nul < 0 || lf < 0) ask();
  const name = data.toString('utf8', pos.at, nul);
  const m = /^(-?\d+) (\d+)$/.exec(data.toString('latin1', nul + 1, lf));
  if (!m) ask();
  pos.at = lf + 1;
  const node: CacheTree & { name: string } = { name, children: new Map() };
  if (Number(m![1]) >= 0) {
    node.oid = data.toString('hex', pos.at, pos.at + 20);
    pos.at += 20;
  }
  for (let i = 0; i < Number(m![2]); i++) {
    const child = readCacheTree(data, pos);
    node.children.set(child.name, child);
  }
  return node;
}

type TreeEntries = Map<string, { mode: string; oid: string }>;

function readTree(common: string, oid: string): TreeEntries {
  const o = readLoose(common, oid);
  if (o?.type !== 'tree') ask();
  return new Map(parseTree(o!.data).map((e) => [e.name, { mode: e.mode, oid: e.oid }]));
}

/** The changes under directory `dir` (`a/b/`): the index's `entries` there against HEAD's `headTree`. */
function walk(common: string, top: string, dir: string, headTree: string | null, cache: CacheTree | undefined, entries: IndexEntry[], out: StagedChange[]): void {
  if (cache?.oid !== undefined && cache.oid === headTree) return;
  if (exists(join(top, dir, '.gitattributes'))) ask();
  const head: TreeEntries = headTree === null ? new Map() : readTree(common, headTree);
  const files = new Map<string, IndexEntry>();
  const subdirs = new Map<string, IndexEntry[]>();
  for (const e of entries) {
    const rest = e.path.slice(dir.length);
    const slash = rest.indexOf('/');
    if (slash < 0) files.set(rest, e);
    else {
      const name = rest.slice(0, slash);
      (subdirs.get(name) ?? subdirs.set(name, []).get(name)!).push(e);
    }
  }
  for (const [name, e] of files) {
    const h = head.get(name);
    if (name === '.gitattributes' || (h && !FILE_MODES.has(h.mode))) ask();
    if (!h) change(common, dir + name, null, e.oid, out);
    else if (h.oid !== e.oid) change(common, dir + name, h.oid, e.oid, out);
  }
  for (const [name, sub] of subdirs) {
    const h = head.get(name);
    if (h && h.mode !== '40000') ask();
    walk(common, top, `${dir}${name}/`, h?.oid ?? null, cache?.children.get(name), sub, out);
  }
  for (const [name, h] of head) {
    if (files.has(name) || subdirs.has(name)) continue;
    if (h.mode === '40000') deleted(common, `${dir}${name}/`, h.oid, out);
    else if (FILE_MODES.has(h.mode)) change(common, dir + name, h.oid, null, out);
    else ask();
  }
}

/** Every file of a directory HEAD has and the index no longer does. */
function deleted(common: string, dir: string, tree: string, out: StagedChange[]): void {
  for (const [name, h] of readTree(common, tree)) {
    if (h.mode === '40000') deleted(common, `${dir}${name}/`, h.oid, out);
    else if (FILE_MODES.has(h.mode)) change(common, dir + name, h.oid, null, out);
    else ask();
  }
}

function blob(common: string, oid: string): Buffer {
  const o = readLoose(common, oid);
  if (o?.type !== 'blob') ask();
  return Buffer.from(o!.data.buffer, o!.data.byteOffset, o!.data.byteLength);
}

/** One file's change, as its `---`/`+++` and `-U0` hunks give it; nothing for a binary side or an empty file added or deleted. */
function change(common: string, path: string, from: string | null, to: string | null, out: StagedChange[]): void {
  if (/[\x00-\x1f"\\\x7f]/.test(path) || path.includes('\uFFFD')) ask();
  const a = from === null ? Buffer.alloc(0) : blob(common, from);
  const b = to === null ? Buffer.alloc(0) : blob(common, to);
  const binary = (x: Buffer) => x.subarray(0, FIRST_FEW_BYTES).includes(0);
  if (binary(a) || binary(b)) return;
  if ((from === null || to === null) && a.length + b.length === 0) return;
  const old = records(a);
  const neu = records(b);
  let start = 0;
  while (start < old.length && start < neu.length && old[start] === neu[start]) start++;
  let end = 0;
  while (end < old.length - start && end < neu.length - start && old[old.length - 1 - end] === neu[neu.length - 1 - end]) end++;
  const removed = old.slice(start, old.length - end);
  const added = neu.slice(start, neu.length - end);
  // lines on both sides: which of them git pairs is its diff algorithm's choice
  const taken = new Set(removed);
  if (added.some((r) => taken.has(r))) ask();
  out.push({ path, added: added.map(text), removed: removed.map(text) });
}

/** A file's lines as git compares them: bytes (latin1), each with its line break when it has one. */
function records(x: Buffer): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < x.length) {
    const nl = x.indexOf(10, at);
    const end = nl < 0 ? x.length : nl + 1;
    out.push(x.toString('latin1', at, end));
    at = end;
  }
  return out;
}

/** A record as diff's output line reads once decoded: UTF-8, without its line break. */
const text = (record: string) => Buffer.from(record.endsWith('\n') ? record.slice(0, -1) : record, 'latin1').toString('utf8');
