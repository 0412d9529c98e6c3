// A code repository's `git blame`, read as data: `git blame --porcelain` (on a revision, HEAD by
// default, so uncommitted edits are not blamed; with -L ranges when asked) parsed into one record
// per line. A code repository is someone else's: git runs with the safety flags (no hooks, no
// fsmonitor) and no textconv program, and the environment cannot point it at another repository.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { codeEnv, codeGit, codeGitSync, firstErrorLine, type CodeGitSync } from './code-git.js';
import { discoverTop } from './discover.js';

export interface CodeBlameLine {
  /** the line's number in the file at the revision blamed, from 1 */
  line: number;
  /** the code commit that last changed it (40 or 64 hex; all zeros: not committed) */
  commit: string;
  /** its number in that commit's version of the file, and that version's path */
  original: number;
  path: string;
  /** the line's text, without its newline */
  text: string;
  author: string;
  /** `<name@example.com>` as git prints it */
  authorMail: string;
  /** seconds since the epoch */
  authorTime: number;
  summary: string;
  /** the commit is a boundary of the blame (a root commit, or one beyond a range's start) */
  boundary: boolean;
}

/** A file of a code repository: the repository's top and the path under it (`/` separated). */
export interface CodeFile {
  top: string;
  path: string;
}

/** Why a blame could not run: git's first line, and what kind of failure it was. */
export class CodeBlameError extends Error {
  constructor(message: string, readonly kind: 'no-repo' | 'no-file' | 'range' | 'revision' | 'git') {
    super(message);
  }
}

/**
 * Run git in `cwd`; its stdout as text, or a CodeBlameError of `kind` with git's first error line.
 * `blocking`: the process waits for git (spawnSync), whose output node then reads in C++ in one piece
 * instead of a stream event per pipe read: for a CLI run with nothing else to do (a 2,000-line blame's
 * 320 KB: ~6 ms less CPU); a server keeps serving while git runs.
 */
async function blameGit(cwd: string, args: readonly string[], kind: CodeBlameError['kind'] = 'git', blocking = false): Promise<string> {
  const all = ['-c', 'diff.external=', ...args];
  const r = blocking
    ? syncRun(codeGitSync(cwd, all, { env: codeEnv(), maxBuffer: Infinity }))
    : await codeGit(cwd, all, { env: codeEnv() }).then(
        (a) => ({ code: a.code, out: a.out.toString('utf8'), err: a.err }),
        (e: Error) => {
          throw new CodeBlameError(`git: ${e.message}`, 'git');
        },
      );
  if (r.code === 0) return r.out;
  throw new CodeBlameError(firstErrorLine(r.err, `git ${args[0]} exited with ${r.code}`), kind);
}

/** A synchronous run as the asynchronous one reports it: a git that cannot start says `spawn git ENOENT`, as codeGit's does. */
function syncRun(r: CodeGitSync): { code: number | null; out: string; err: string } {
  if (r.error) throw new CodeBlameError(`git: ${r.error.message.replace(/^spawnSync /, 'spawn ')}`, 'git');
  return { code: r.status, out: r.out, err: r.err };
}

/** The repository holding `file` (relative to `cwd`) and its path there; the file need not exist at HEAD yet. */
export async function codeFileOf(file: string, cwd: string): Promise<CodeFile> {
  const abs = isAbsolute(file) ? file : resolve(cwd, file);
  // found in-process as git finds it; git is asked when it is not the plain case, and says why it fails
  const top =
    discoverTop(dirname(abs)) ??
    (await blameGit(dirname(abs), ['rev-parse', '--show-toplevel'], 'no-repo').catch(() => {
      throw new CodeBlameError(`${file} is not in a git repository`, 'no-repo');
    })).replace(/\n$/, '');
  // the top git prints has its links resolved: resolve the file's directory the same way
  const path = relative(top, join(realpathSync(dirname(abs)), basename(abs))).split(sep).join('/');
  if (path === '' || path.startsWith('../')) throw new CodeBlameError(`${file} is not in a git repository`, 'no-repo');
  return { top, path };
}

/** `git blame` of a file at `rev` (default HEAD), every line or only the `ranges` (1-based, inclusive): one git process (`blocking`: see blameGit). */
export async function codeBlame(f: CodeFile, o: { rev?: string; ranges?: readonly [number, number][]; blocking?: boolean } = {}): Promise<CodeBlameLine[]> {
  const rev = o.rev ?? 'HEAD';
  if (rev.startsWith('-')) throw new CodeBlameError(`not a revision: '${rev}'`, 'revision');
  const ranges = (o.ranges ?? []).flatMap(([a, b]) => ['-L', `${a},${b}`]);
  const out = await blameGit(f.top, ['blame', '--porcelain', '--no-textconv', ...ranges, rev, '--', f.path], 'range', o.blocking).catch((e: CodeBlameError) => {
    // git's own words say which failure it was
    if (/^no such path /.test(e.message)) throw new CodeBlameError(`${f.path} is not tracked at ${rev}`, 'no-file');
    if (/has only \d+ lines?$|invalid -L|-L range/.test(e.message)) throw e;
    throw new CodeBlameError(`not a commit in ${f.top}: '${rev}'`, 'revision');
  });
  return parsePorcelain(out);
}

interface CommitInfo {
  author: string;
  authorMail: string;
  authorTime: number;
  summary: string;
  boundary: boolean;
  path: string;
}

/** A group's first line: the commit, the line's number in that commit's version and in the file blamed, and the group's size. */
const HEAD = /([0-9a-f]{40}|[0-9a-f]{64}) (\d+) (\d+)(?: \d+)?(?:\n|$)/y;

/**
 * `git blame --porcelain` output → one record per line (a commit's fields come with its first line
 * only). Read in place with indexOf: a file of thousands of lines is read once, without an array of
 * its lines or a match object per header field.
 */
export function parsePorcelain(text: string): CodeBlameLine[] {
  const commits = new Map<string, CommitInfo>();
  const out: CodeBlameLine[] = [];
  const n = text.length;
  let i = 0;
  const lineEnd = (from: number) => {
    const nl = text.indexOf('\n', from);
    return nl < 0 ? n : nl;
  };
  while (i < n) {
    let end = lineEnd(i);
    HEAD.lastIndex = i;
    const head = end - i >= 44 ? HEAD.exec(text) : null;
    i = end + 1;
    if (!head) continue;
    const sha = head[1];
    let info = commits.get(sha);
    if (info === undefined) commits.set(sha, (info = { author: '', authorMail: '', authorTime: 0, summary: '', boundary: false, path: '' }));
    // header fields until the TAB-led content line; `filename` comes with each group of lines
    let path = info.path;
    for (; i < n && text.charCodeAt(i) !== 9; i = end + 1) {
      end = lineEnd(i);
      const sp = text.indexOf(' ', i);
      const key = sp < 0 || sp > end ? text.slice(i, end) : text.slice(i, sp);
      const value = sp < 0 || sp > end ? '' : text.slice(sp + 1, end);
      if (key === 'author') info.author = value;
      else if (key === 'author-mail') info.authorMail = value;
      else if (key === 'author-time') info.authorTime = Number(value) || 0;
      else if (key === 'summary') info.summary = value;
      else if (key === 'boundary') info.boundary = true;
      else if (key === 'filename') path = info.path = value;
    }
    let line = '';
    if (i < n) {
      end = lineEnd(i);
      line = text.slice(i + 1, end);
      i = end + 1;
    }
    out.push({ line: Number(head[3]), commit: sha, original: Number(head[2]), path, text: line, author: info.author, authorMail: info.authorMail, authorTime: info.authorTime, summary: info.summary, boundary: info.boundary });
  }
  return out;
}

/** The full messages of code commits, sha → message, in one git run (`blocking`: see blameGit). */
export async function codeMessages(top: string, shas: readonly string[], blocking = false): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const wanted = [...new Set(shas)].filter((s) => /^[0-9a-f]{40,64}$/.test(s) && !/^0+$/.test(s));
  if (wanted.length === 0) return out;
  const text = await blameGit(top, ['log', '--no-walk=unsorted', '-z', '--format=%H%n%B', ...wanted], 'git', blocking);
  for (const rec of text.split('\0')) {
    const nl = rec.indexOf('\n');
    if (nl > 0) out.set(rec.slice(0, nl), rec.slice(nl + 1));
  }
  return out;
}
