// What ctx's commit hook asks of a code repository, read in-process from its files for the plain case,
// so a commit starts no git for it: the worktree's git directories and HEAD (with its parents), the
// config keys the hooks read, and whether a queued commit changed given files. As in discover.ts,
// anything git could judge differently gives null and the caller asks git: an environment that
// points git elsewhere or adds config, includes, another ref or object format, reftable, grafts, a
// shallow clone, an object that is not loose, a value with quotes or escapes.
import { lstatSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { userConfigFiles } from '../config-files.js';
import { parseGitConfig } from '../config-parse.js';
import { readLoose } from '../loose-objects.js';
import { parseCommit, parseTree } from '../objects.js';
import { discoverTop } from './discover.js';

/** Variables that move the repository, its objects or refs, or what git reads as config. */
const ELSEWHERE = ['GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_CONFIG', 'GIT_REPLACE_REF_BASE'];

/** A config (the repository's own) that changes how refs or objects are stored, or that git alone may read (includes). */
const NOT_PLAIN_CONFIG = /^\s*(refstorage|objectformat|compatobjectformat)\s*=|^\s*\[\s*include/im;

export interface PlainDirs {
  /** the worktree's own git directory, real path */
  gitdir: string;
  /** the repository's common git directory, real path */
  common: string;
}

/** The git directories of the worktree at `top` (a real path), as `git rev-parse --path-format=absolute` prints them; null: ask git. */
export function plainDirs(top: string, env: NodeJS.ProcessEnv): PlainDirs | null {
  if (ELSEWHERE.some((k) => env[k] !== undefined) || discoverTop(top, env) !== top) return null;
  try {
    const dotGit = join(top, '.git');
    const st = lstatSync(dotGit);
    const gitdir = realpathSync(st.isDirectory() ? dotGit : resolve(top, /^gitdir: (.+)\n?$/.exec(readFileSync(dotGit, 'utf8'))![1]));
    // git sets GIT_DIR for the hooks of a linked worktree: the same directory, or git is asked
    if (env.GIT_DIR !== undefined && realpathSync(resolve(top, env.GIT_DIR)) !== gitdir) return null;
    const commondir = readOrNull(join(gitdir, 'commondir'));
    const common = commondir === null ? gitdir : realpathSync(resolve(gitdir, commondir.trim()));
    if (NOT_PLAIN_CONFIG.test(readFileSync(join(common, 'config'), 'utf8'))) return null;
    // grafts, a shallow boundary and replace refs change a commit's parents
    if (['info/grafts', 'shallow'].some((f) => lstatSync(join(common, f), { throwIfNoEntry: false }))) return null;
    if (readdirOrNone(join(common, 'refs', 'replace')).length > 0 || readOrNull(join(common, 'packed-refs'))?.includes(' refs/replace/')) return null;
    return { gitdir, common };
  } catch {
    return null;
  }
}

function readdirOrNone(path: string): string[] {
  try {
    return readdirSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

const OID = /^[0-9a-f]{40}$/;
/** Refs kept in each worktree's own git directory rather than the common one. */
const PER_WORKTREE = /^refs\/(bisect|worktree|rewritten)\//;

/** HEAD of the worktree: its commit and parents, `unborn` for a branch with no commit yet; null: ask git. */
export function plainHead({ gitdir, common }: PlainDirs): { sha: string; parents: string[] } | 'unborn' | null {
  try {
    let name = 'HEAD';
    if (!lstatSync(join(gitdir, 'HEAD')).isFile()) return null;
    for (let depth = 0; depth < 5; depth++) {
      const text = name === 'HEAD' ? readFileSync(join(gitdir, 'HEAD'), 'utf8') : looseRef(PER_WORKTREE.test(name) ? gitdir : common, name) ?? packedRef(common, name);
      if (text === null) return 'unborn';
      if (OID.test(text.trimEnd()) && text.length <= 42) {
        const sha = text.trimEnd();
        const commit = readLoose(common, sha);
        if (commit?.type !== 'commit') return null;
        return { sha, parents: parseCommit(commit.data).parents };
      }
      const m = /^ref: (refs\/[^\s]+)\n?$/.exec(text);
      if (!m || m[1].split('/').some((p) => p === '' || p === '.' || p === '..')) return null;
      name = m[1];
    }
  } catch {}
  return null;
}

/** A loose ref file's text; null when there is none (a directory there, or anything odd, throws: git is asked). */
function looseRef(dir: string, name: string): string | null {
  const path = join(dir, name);
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return null;
  if (!st.isFile()) throw new Error('not a plain ref');
  return readFileSync(path, 'utf8');
}

/** A ref's id in packed-refs, as a loose ref's text; null when it is not there. */
function packedRef(common: string, name: string): string | null {
  const text = readOrNull(join(common, 'packed-refs'));
  if (text === null) return null;
  for (const line of text.split('\n')) if (line.length === 41 + name.length && line[40] === ' ' && line.endsWith(name) && OID.test(line.slice(0, 40))) return `${line.slice(0, 40)}\n`;
  return null;
}

/** The config keys the commit hooks read, last value of each (as `git config --get-regexp` lists them). */
export interface PlainConfig {
  /** ctx.links's value (null: the key alone, true as git reads it); undefined: unset */
  links?: string | null;
  origin?: string;
  /** core.commentChar, core.commentString or some trailer.* key is set */
  trailerRules: boolean;
  /** some diff.* key, core.attributesFile or core.bigFileThreshold is set: what `git diff --cached` prints is left to git */
  diffRules: boolean;
}

/** Keys a `-c` or GIT_CONFIG_* variable might set that the hooks read (or that might include more): git is asked. */
const WATCHED = /ctx\.|remote\.|core\.comment|trailer\.|include|diff\.|core\.attributesfile|core\.bigfilethreshold/i;

/** The hooks' config keys from the files git reads (system, global, the repository's); null: ask git. */
export function plainConfig({ common }: PlainDirs, env: NodeJS.ProcessEnv): PlainConfig | null {
  // the system file is $(prefix)/etc/gitconfig, /etc/gitconfig for a git installed under /usr (GIT_EXEC_PATH, which git sets for its hooks, says where)
  const usrGit = process.platform === 'linux' && (env.GIT_EXEC_PATH === '/usr/lib/git-core' || env.GIT_EXEC_PATH === '/usr/libexec/git-core');
  if (!gitTrue(env.GIT_CONFIG_NOSYSTEM) && !usrGit && env.GIT_CONFIG_SYSTEM === undefined) return null;
  if (env.GIT_CONFIG_GLOBAL === '' || env.GIT_CONFIG_SYSTEM === '') return null;
  if (env.GIT_CONFIG_PARAMETERS !== undefined && WATCHED.test(env.GIT_CONFIG_PARAMETERS)) return null;
  for (let i = 0; i < Number(env.GIT_CONFIG_COUNT ?? 0); i++) if (WATCHED.test(env[`GIT_CONFIG_KEY_${i}`] ?? '')) return null;
  if (env.GIT_CONFIG_COUNT !== undefined && !/^\d{1,3}$/.test(env.GIT_CONFIG_COUNT)) return null;
  // the files as userConfigFiles lists them, whose reading of GIT_CONFIG_NOSYSTEM agrees with gitTrue for these values; no home: git's
  if (env.GIT_CONFIG_NOSYSTEM !== undefined && !/^(1|true|yes|on|0|false|no|off)?$/i.test(env.GIT_CONFIG_NOSYSTEM)) return null;
  if (env.GIT_CONFIG_GLOBAL === undefined && !env.HOME) return null;
  const out: PlainConfig = { trailerRules: false, diffRules: false };
  for (const f of [...userConfigFiles(env), join(common, 'config')]) {
    let text: string | null;
    try {
      text = readOrNull(f);
    } catch {
      return null;
    }
    if (text !== null && !readConfigText(text, out)) return null;
  }
  return out;
}

/** A boolean environment variable as git reads it (unset or unreadable: false). */
const gitTrue = (v: string | undefined) => v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());

/** A section's line as git writes it, alone on its line: `[name]` or `[name "sub"]`, perhaps a comment after. */
const SECTION = /^\[[A-Za-z0-9-]+(?:[ \t]+"(?:[^"\\\n]|\\[^\n])*")?\][ \t]*(?:[#;].*)?$/;

/**
 * One config file's entries into `out`, as parseGitConfig reads them (git's syntax); false when the
 * file holds anything this reader leaves to git, checked on its lines: a BOM, a carriage return, a
 * continued line, an old-style or odd section, a key after a section on its line, an include, or a
 * value the hooks read that has quotes or escapes. Each other line is one key, the entry of its rank.
 */
function readConfigText(text: string, out: PlainConfig): boolean {
  if (text.startsWith('\uFEFF') || text.includes('\r')) return false;
  const parsed = parseGitConfig(text);
  if (parsed.bad) return false;
  let k = 0;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^[ \t]+/, '');
    if (line === '' || line[0] === '#' || line[0] === ';') continue;
    if (line.endsWith('\\')) return false;
    if (line[0] === '[') {
      if (!SECTION.test(line)) return false;
      continue;
    }
    const entry = parsed.entries[k++];
    if (entry === undefined) return false;
    const [key, parsedValue] = entry;
    const section = key.slice(0, key.lastIndexOf('.'));
    const name = section.split('.')[0];
    if (name === 'include' || name === 'includeif') return false;
    if (name === 'diff' || key === 'core.attributesfile' || key === 'core.bigfilethreshold') out.diffRules = true;
    const watched = key === 'ctx.links' || key === 'remote.origin.url' || key === 'core.commentchar' || key === 'core.commentstring' || name === 'trailer';
    if (!watched) continue;
    // a key alone has no value (parseGitConfig reads it as `true`, as a boolean would): ctx.links alone is true, origin's url alone empty
    const eq = line.indexOf('=');
    if (eq >= 0 && /["\\]/.test(line.slice(eq + 1))) return false;
    const value = eq < 0 ? null : parsedValue;
    if (key === 'ctx.links') out.links = value;
    else if (key === 'remote.origin.url') out.origin = value ?? '';
    else out.trailerRules = true;
  }
  return k === parsed.entries.length;
}

/**
 * Of `paths` (relative to the top, `/`-separated), those commit `sha` changed against its first parent
 * as `git log -1 --name-only --no-renames --diff-merges=first-parent` lists them, with its parents and
 * message; null (ask git) for a root commit, an encoded message, or an object that is not loose.
 */
export function plainCommitChanges(common: string, sha: string, paths: readonly string[]): { sha: string; parents: string[]; message: string; changed: string[] } | null {
  const commit = readLoose(common, sha);
  if (commit?.type !== 'commit') return null;
  const c = parseCommit(commit.data);
  const header = Buffer.from(commit.data).toString('latin1', 0, Math.max(0, Buffer.from(commit.data).indexOf('\n\n')));
  if (c.parents.length === 0 || /^encoding /m.test(header) || !c.message.endsWith('\n')) return null;
  const parent = readLoose(common, c.parents[0]);
  if (parent?.type !== 'commit') return null;
  const trees = new Map<string, Map<string, { mode: string; oid: string }> | null>();
  const changed: string[] = [];
  for (const path of paths) {
    // a name git printed with bytes that are not UTF-8 is not looked up here
    if (path.includes('\uFFFD')) return null;
    const a = entryAt(common, parseCommit(parent.data).tree, path, trees);
    const b = entryAt(common, c.tree, path, trees);
    if (a === undefined || b === undefined) return null;
    // a path is listed when a file (or link, or submodule) is there on either side and the two differ
    const isFile = (e: { mode: string } | null) => e !== null && e.mode !== '40000';
    if ((isFile(a) || isFile(b)) && (a?.mode !== b?.mode || a?.oid !== b?.oid)) changed.push(path);
  }
  return { sha, parents: c.parents, message: c.message, changed };
}

/** The tree entry at `path` under `tree` (null: none); undefined when a tree on the way is not loose. */
function entryAt(common: string, tree: string, path: string, trees: Map<string, Map<string, { mode: string; oid: string }> | null>): { mode: string; oid: string } | null | undefined {
  let at: { mode: string; oid: string } = { mode: '40000', oid: tree };
  for (const name of path.split('/')) {
    if (at.mode !== '40000') return null;
    let entries = trees.get(at.oid);
    if (entries === undefined) {
      const o = readLoose(common, at.oid);
      entries = o?.type === 'tree' ? new Map(parseTree(o.data).map((e) => [e.name, { mode: e.mode, oid: e.oid }])) : null;
      trees.set(at.oid, entries);
    }
    if (entries === null) return undefined;
    const next = entries.get(name);
    if (!next) return null;
    at = next;
  }
  return at;
}
