// The code repository a person or an agent commits to (not a store): where its hooks run from, what
// a commit stages, its messages and trailers. Its config is someone else's: only values are read
// from it, nothing it names is run (SAFE_CONFIG keeps its hooks and fsmonitor off every git here).
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { CtxError } from '../../errors/index.js';
import { codeGitSync } from './code-git.js';
import { plainConfig, plainDirs, plainHead, type PlainDirs } from './plain.js';
import { plainStaged, type StagedChange } from './plain-staged.js';

/** Git on the code repository at `cwd`, with the caller's environment (GIT_INDEX_FILE of a partial commit included). */
function gitIn(cwd: string, args: string[], env: NodeJS.ProcessEnv, input?: string): { ok: boolean; out: string; err: string } {
  const r = codeGitSync(cwd, args, { env, input });
  return { ok: r.status === 0, out: r.out, err: r.err };
}

function mustGit(cwd: string, args: string[], env: NodeJS.ProcessEnv, input?: string): string {
  const r = gitIn(cwd, args, env, input);
  if (!r.ok) throw new CtxError(`git ${args[0]}: ${r.err.split('\n').find((l) => l.trim()) ?? 'failed'}`);
  return r.out;
}

/** The nearest directory at or above `dir` holding `.git` (a file in a linked worktree, a directory otherwise), real path; no git started. */
export function worktreeTop(dir: string): string | null {
  let d: string;
  try {
    d = realpathSync(dir);
  } catch {
    return null;
  }
  for (; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return null;
  }
}

export interface CodeRepo {
  /** the worktree's top, real path */
  top: string;
  /** the repository's common git directory (shared by its worktrees) */
  common: string;
  /** this worktree's own git directory */
  gitdir: string;
  /** where git runs hooks from: core.hooksPath (as the user's config says, not ctx's `-c`), else `<common>/hooks` */
  hooks: string;
  /** core.hooksPath was set */
  hooksPath: boolean;
}

/** The code repository whose worktree holds `cwd`; null outside one. */
export function codeRepo(cwd: string, env: NodeJS.ProcessEnv): CodeRepo | null {
  const r = gitIn(cwd, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir', '--git-dir'], env);
  if (!r.ok) return null;
  const [top, common, gitdir] = r.out.split('\n');
  if (!top) return null;
  // SAFE_CONFIG's own core.hooksPath is the command line's: the user's value is the last from a file
  const set = gitIn(top, ['config', '--show-origin', '--get-all', 'core.hooksPath'], env)
    .out.split('\n')
    .filter((l) => l !== '' && !l.startsWith('command line:'))
    .map((l) => l.slice(l.indexOf('\t') + 1));
  const value = set.at(-1);
  const expanded = value?.startsWith('~/') ? join(env.HOME ?? '', value.slice(2)) : value;
  const hooks = expanded ? (isAbsolute(expanded) ? expanded : resolve(top, expanded)) : join(common, 'hooks');
  return { top: realpathSync(top), common: realpathSync(common), gitdir: realpathSync(gitdir), hooks, hooksPath: Boolean(expanded) };
}

/** `git rev-parse --git-path NAME` of the worktree at `top`: a per-worktree file in its git directory. */
export function gitPath(top: string, name: string, env: NodeJS.ProcessEnv): string {
  return resolve(top, mustGit(top, ['rev-parse', '--git-path', name], env).replace(/\n$/, ''));
}

/** What the commit hooks read of a code repository's config, in one git. */
export interface CodeConfig {
  /** `ctx.links` as git reads a boolean (undefined: unset or not a boolean) */
  links?: boolean;
  /** remote.origin.url ('' when unset) */
  origin: string;
  /** core.commentChar or core.commentString is set, or some trailer.* key: trailers are left to git */
  trailerRules: boolean;
  /** read in-process, and nothing set that changes what `git diff --cached` prints (a diff.* key, core.attributesFile, core.bigFileThreshold): stagedChanges may read the index in-process too */
  plainDiff?: boolean;
}

/** The last value of each key ctx's commit hooks care about: read in-process for the plain case (`plain`: the site's), else `git config -z --get-regexp` once. */
export function codeConfig(top: string, env: NodeJS.ProcessEnv, plain?: PlainDirs): CodeConfig {
  const read = plain && plainConfig(plain, env);
  if (read) return { ...(read.links !== undefined ? { links: gitBool(read.links) } : {}), origin: read.origin ?? '', trailerRules: read.trailerRules, plainDiff: !read.diffRules };
  const r = gitIn(top, ['config', '-z', '--get-regexp', '^(ctx\\.links|remote\\.origin\\.url|core\\.comment(char|string)|trailer\\..*)$'], env);
  const out: CodeConfig = { origin: '', trailerRules: false };
  for (const item of r.ok ? r.out.split('\0') : []) {
    if (item === '') continue;
    const nl = item.indexOf('\n');
    const key = nl < 0 ? item : item.slice(0, nl);
    // a key without `=` is true, as git reads it
    const value = nl < 0 ? null : item.slice(nl + 1);
    if (key === 'ctx.links') out.links = gitBool(value);
    else if (key === 'remote.origin.url') out.origin = value ?? '';
    else out.trailerRules = true;
  }
  return out;
}

/** A config value as `--type=bool` reads it; undefined when it is not a boolean. */
function gitBool(value: string | null): boolean | undefined {
  if (value === null) return true;
  const v = value.toLowerCase();
  if (v === 'true' || v === 'yes' || v === 'on' || v === '1') return true;
  if (v === 'false' || v === 'no' || v === 'off' || v === '0' || v === '') return false;
  return undefined;
}

/**
 * What `git commit` would commit against HEAD (GIT_INDEX_FILE honoured), file by file: read in-process
 * for the plain case (`plain`: the site's directories and HEAD, plain-staged.ts), else in one git,
 * `diff --cached -U0`.
 */
export function stagedChanges(top: string, env: NodeJS.ProcessEnv, plain?: { dirs: PlainDirs; head: string | null }): StagedChange[] {
  const read = plain && plainStaged(plain.dirs, top, plain.head, env);
  if (read) return read;
  const diff = mustGit(top, ['-c', 'core.quotePath=false', 'diff', '--cached', '-U0', '--no-renames', '--no-ext-diff', '--no-textconv', '--no-color', '--src-prefix=a/', '--dst-prefix=b/'], env);
  return parseChanges(diff);
}

/** `diff -U0` text → its files' added and removed lines (a file's path from its `+++ b/` line, or `--- a/` when deleted). */
export function parseChanges(diff: string): StagedChange[] {
  const out: StagedChange[] = [];
  let cur: StagedChange | null = null;
  let from = '';
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      cur = null;
      inHunk = false;
    } else if (!inHunk && line.startsWith('--- ')) from = diffPath(line.slice(4), 'a/');
    else if (!inHunk && line.startsWith('+++ ')) {
      const to = diffPath(line.slice(4), 'b/');
      cur = { path: to || from, added: [], removed: [] };
      out.push(cur);
    } else if (line.startsWith('@@')) inHunk = true;
    else if (cur && inHunk && line.startsWith('+')) cur.added.push(line.slice(1));
    else if (cur && inHunk && line.startsWith('-')) cur.removed.push(line.slice(1));
  }
  return out;
}

/** A path of a `---`/`+++` line: `/dev/null` is none; a C-quoted one is unquoted. */
function diffPath(raw: string, prefix: string): string {
  let p = raw.replace(/\t$/, '');
  if (p === '/dev/null') return '';
  if (p.startsWith('"') && p.endsWith('"')) {
    try {
      p = Buffer.from(JSON.parse(p.replace(/\\([0-7]{3})/g, (_, o: string) => `\\u00${parseInt(o, 8).toString(16).padStart(2, '0')}`)), 'latin1').toString('utf8');
    } catch {
      return '';
    }
  }
  return p.startsWith(prefix) ? p.slice(prefix.length) : p;
}

/** A commit, its parents, its message and the files it changed against its first parent (every file for a root commit), in one git; null when `rev` names none. */
export function commitInfo(top: string, rev: string, env: NodeJS.ProcessEnv): { sha: string; parents: string[]; message: string; files: string[] } | null {
  const r = gitIn(top, ['log', '-1', '-z', '--format=%H %P%x00%B', '--name-only', '--no-renames', '--diff-merges=first-parent', rev, '--'], env);
  if (!r.ok || r.out === '') return null;
  const head = r.out.indexOf('\0');
  const end = r.out.indexOf('\0', head + 1);
  const [sha, ...parents] = r.out.slice(0, head).trim().split(' ');
  const files = r.out.slice(end + 1).replace(/^\n/, '').split('\0').filter(Boolean);
  return { sha, parents, message: r.out.slice(head + 1, end), files: [...new Set(files)] };
}

/**
 * Adds trailers to a message file as `git interpret-trailers --if-exists addIfDifferent --where end`
 * does (past comments and a scissors line), a trailer already there with the same value not again.
 * A message whose end git reads plainly (see `plainEnd`) is written here; any other is left to git.
 */
export function addTrailers(top: string, file: string, trailers: readonly string[], env: NodeJS.ProcessEnv, rules = true): void {
  if (trailers.length === 0) return;
  if (!rules) {
    const text = readFileSync(file, 'utf8');
    if (plainEnd(text)) return writeFileSync(file, `${text}\n${[...new Set(trailers)].join('\n')}\n`);
  }
  const args = ['interpret-trailers', '--in-place', '--if-exists', 'addIfDifferent', '--where', 'end'];
  for (const t of trailers) args.push('--trailer', t);
  mustGit(top, [...args, file], env);
}

/**
 * A message git would end with a new trailer block exactly as `addTrailers` does: one line break at
 * its end, no blank line there, no carriage return, no comment, no `---` divider, no line of blanks,
 * and a last paragraph that is a one-line subject or has no line a trailer or its continuation
 * could be (`Token:`, `Token =`, a leading blank).
 */
export function plainEnd(text: string): boolean {
  if (!text.endsWith('\n') || text.endsWith('\n\n') || /\r|^#|^---(\s|$)|^[ \t]+$/m.test(text)) return false;
  const paragraphs = text.slice(0, -1).split('\n\n');
  if (paragraphs.length === 1) return !paragraphs[0].includes('\n');
  return !paragraphs.at(-1)!.split('\n').some((l) => /^[\w-]+\s*[:=]|^\s/.test(l));
}

/** The repository for people: origin's URL without credentials (`origin`: as codeConfig read it), else its directory's name. */
export function repoName(top: string, common: string, env: NodeJS.ProcessEnv, origin?: string): string {
  const url = (origin ?? gitIn(top, ['config', '--get', 'remote.origin.url'], env).out).trim();
  if (url) return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1');
  const base = common.endsWith('/.git') ? dirname(common) : common;
  return base.split('/').pop() || base;
}

/** Where the code commit is being made: its worktree's top, and its own git directory's files. */
export interface CommitSite {
  top: string;
  /** the repository's git directory, shared by its worktrees */
  common: string;
  /** `<worktree git dir>/ctx-pending.json` */
  pending: string;
  /** `<worktree git dir>/ctx-queue`: the commits post-commit left for ctx to record (commit-queue.ts) */
  queue: string;
  /** a rebase is under way in this worktree: its commits are post-rewrite's */
  rebasing: boolean;
  /** HEAD and its parents (null: unborn) */
  head: { sha: string; parents: string[] } | null;
  /** the git directories, when the site was read in-process (plain.ts): its config can be too */
  plain?: PlainDirs;
}

/**
 * The worktree holding `cwd` (null outside one): read in-process for the plain case (plain.ts), else
 * one git process for its per-worktree paths and HEAD (two when HEAD is unborn).
 */
export function commitSite(cwd: string, env: NodeJS.ProcessEnv): CommitSite | null {
  const place = commitPlace(cwd, env);
  return place && siteHead(place, env);
}

/** A commit site whose HEAD may not be read yet: in the plain case the directories alone (all a git hook needs to know whether there is work). */
export type CommitPlace = Omit<CommitSite, 'head'> & Partial<Pick<CommitSite, 'head'>>;

/** commitSite without HEAD in the plain case: reading HEAD's commit loads and runs zlib's inflate (~9 M instructions). */
export function commitPlace(cwd: string, env: NodeJS.ProcessEnv): CommitPlace | null {
  const top = worktreeTop(cwd);
  if (top === null) return null;
  const plain = plainDirs(top, env);
  if (!plain) return gitSite(top, env);
  const at = (name: string) => join(plain.gitdir, name);
  return { top, common: plain.common, pending: at('ctx-pending.json'), queue: at('ctx-queue'), rebasing: existsSync(at('rebase-merge')) || existsSync(at('rebase-apply')), plain };
}

/** The place's site with HEAD: read in-process when it is a loose commit, else the whole site from git, as commitSite gives it for a repository not read in-process. */
export function siteHead(place: CommitPlace, env: NodeJS.ProcessEnv): CommitSite | null {
  if (place.head !== undefined) return { ...place, head: place.head };
  const head = place.plain && plainHead(place.plain);
  return head ? { ...place, head: head === 'unborn' ? null : head } : gitSite(place.top, env);
}

function gitSite(top: string, env: NodeJS.ProcessEnv): CommitSite | null {
  const paths = ['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-path', 'ctx-pending.json', '--git-path', 'ctx-queue', '--git-path', 'rebase-merge', '--git-path', 'rebase-apply'];
  // `HEAD^@`: its parents, none for a root commit; an unborn HEAD fails the whole call
  let r = gitIn(top, [...paths, 'HEAD', 'HEAD^@'], env);
  if (!r.ok) r = gitIn(top, paths, env);
  if (!r.ok) return null;
  const [common, pending, queue, merge, apply, sha, ...parents] = r.out.split('\n').filter(Boolean);
  return { top, common, pending, queue, rebasing: existsSync(merge) || existsSync(apply), head: sha ? { sha, parents } : null };
}
