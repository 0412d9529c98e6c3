// The code repository a person or an agent commits to (not a store): where its hooks run from, what
// a commit stages, its messages and trailers. Its config is someone else's: only values are read
// from it, nothing it names is run (SAFE_CONFIG keeps its hooks and fsmonitor off every git here).
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { CtxError } from '../../errors/index.js';
import { codeGitSync } from './code-git.js';

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

/** A boolean config value of the code repository (`git config --type=bool`); undefined when unset or not a boolean. */
export function configBool(top: string, key: string, env: NodeJS.ProcessEnv): boolean | undefined {
  const r = gitIn(top, ['config', '--type=bool', '--get', key], env);
  if (!r.ok) return undefined;
  const v = r.out.trim();
  return v === 'true' ? true : v === 'false' ? false : undefined;
}



/** A staged file and the lines the commit adds to it and takes out of it. */
export interface StagedChange {
  path: string;
  added: string[];
  removed: string[];
}

/** What `git commit` would commit against HEAD (GIT_INDEX_FILE honoured), file by file, in one git: `diff --cached -U0`. */
export function stagedChanges(top: string, env: NodeJS.ProcessEnv): StagedChange[] {
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

/** The commit a rev names and its parents, 40 hex; null when it does not exist (an unborn HEAD). */
export function commitAndParents(top: string, rev: string, env: NodeJS.ProcessEnv): { sha: string; parents: string[] } | null {
  const r = gitIn(top, ['rev-list', '--parents', '-n', '1', rev, '--'], env);
  if (!r.ok || r.out.trim() === '') return null;
  const [sha, ...parents] = r.out.trim().split(' ');
  return { sha, parents };
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

/** Adds trailers to a message file as `git interpret-trailers` does (past comments and a scissors line), a trailer already there with the same value not again. */
export function addTrailers(top: string, file: string, trailers: readonly string[], env: NodeJS.ProcessEnv): void {
  if (trailers.length === 0) return;
  const args = ['interpret-trailers', '--in-place', '--if-exists', 'addIfDifferent', '--where', 'end'];
  for (const t of trailers) args.push('--trailer', t);
  mustGit(top, [...args, file], env);
}

/** The repository for people: origin's URL without credentials, else its directory's name. */
export function repoName(top: string, common: string, env: NodeJS.ProcessEnv): string {
  const url = gitIn(top, ['config', '--get', 'remote.origin.url'], env).out.trim();
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
  /** a rebase is under way in this worktree: its commits are post-rewrite's */
  rebasing: boolean;
}

/** The worktree holding `cwd` (null outside one); one git process for its per-worktree paths. */
export function commitSite(cwd: string, env: NodeJS.ProcessEnv): CommitSite | null {
  const top = worktreeTop(cwd);
  if (top === null) return null;
  const r = gitIn(top, ['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-path', 'ctx-pending.json', '--git-path', 'rebase-merge', '--git-path', 'rebase-apply'], env);
  if (!r.ok) return null;
  const [common, pending, merge, apply] = r.out.split('\n');
  return { top, common, pending, rebasing: existsSync(merge) || existsSync(apply) };
}
