// The code repository a view of links reads (`ctx serve` in a work tree, or --code PATH): found and
// checked once, and what is asked of it checked before git sees it (a commit id is hex, a file a
// plain path inside the work tree).
import { codeCommitIds, codePatch, codeTop, type DiffFile } from '../../store/code/diff.js';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { AmbiguousIdError, NotFoundError, UsageError } from '../../errors/index.js';

export type { DiffFile, DiffLine, Hunk } from '../../store/code/diff.js';
export type { CodeCommit } from '../../store/code/history.js';

export interface CodeRepo {
  /** the work tree's top */
  top: string;
  env: NodeJS.ProcessEnv;
}

/** The work tree `path` is in, or null when it is in none. */
export function findCodeRepo(path: string, env: NodeJS.ProcessEnv): CodeRepo | null {
  const top = codeTop(path, env);
  return top === null ? null : { top, env };
}

/** The work tree `path` is in; a UsageError when it is in none. */
export function openCodeRepo(path: string, env: NodeJS.ProcessEnv): CodeRepo {
  const code = findCodeRepo(path, env);
  if (code === null) throw new UsageError(`--code takes a git work tree, and ${path} is in none`);
  return code;
}

/** A code commit id as a URL or a user gives it: 4 to 64 hex digits (any case), as lowercase. */
export function codeSha(value: string): string {
  if (!/^[0-9a-fA-F]{4,64}$/.test(value)) throw new UsageError(`sha takes 4 to 64 hex digits of a code commit, not '${value.slice(0, 80)}'`);
  return value.toLowerCase();
}

/** The code commit a prefix names: its full id; NotFoundError for none, AmbiguousIdError for several. */
export async function resolveCodeSha(code: CodeRepo, sha: string): Promise<string> {
  const ids = await codeCommitIds(code.top, code.env, codeSha(sha));
  if (ids.length === 0) throw new NotFoundError(`no commit ${sha} in the code repository ${code.top}`);
  if (ids.length > 1) throw new AmbiguousIdError(sha, ids);
  return ids[0];
}

/** A code commit's diff against its first parent (files and hunks, cut past a limit); `sha`: its full id. */
export function codeDiff(code: CodeRepo, sha: string): Promise<DiffFile[]> {
  return codePatch(code.top, code.env, sha);
}

/** Longest file path taken. */
const MAX_PATH = 4096;

/**
 * A file path as a URL gives it, checked before git sees it: relative to the work tree's top, `/`
 * separated, no `.` or `..` segment, no empty segment, nothing under `.git`, no NUL, backslash or
 * line break. Returned as given.
 */
export function codePath(value: string): string {
  const bad = (why: string) => new UsageError(`file takes a path inside the work tree (${why}), not '${value.slice(0, 200)}'`);
  if (value === '') throw bad('it is empty');
  if (value.length > MAX_PATH) throw bad('it is too long');
  if (/[\0\\\r\n]/.test(value)) throw bad('no NUL, backslash or line break');
  if (value.startsWith('/') || /^[A-Za-z]:/.test(value)) throw bad('relative to its top, not absolute');
  const parts = value.split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) throw bad('no . or .. segment, no empty one');
  if (parts.some((p) => p.toLowerCase() === '.git')) throw bad('nothing under .git');
  return value;
}

/**
 * `codePath`, and no directory on the way to it in the work tree is a symbolic link (one could lead
 * git to another repository). A directory that is not there is git's to report.
 */
export function codeFileInside(code: CodeRepo, value: string): string {
  const path = codePath(value);
  const dirs = path.split('/').slice(0, -1);
  for (let i = 1; i <= dirs.length; i++) {
    let link = false;
    try {
      link = lstatSync(join(code.top, ...dirs.slice(0, i))).isSymbolicLink();
    } catch {
      break;
    }
    if (link) throw new UsageError(`file takes a path inside the work tree, and ${dirs.slice(0, i).join('/')} is a symbolic link: give the path it leads to`);
  }
  return path;
}
