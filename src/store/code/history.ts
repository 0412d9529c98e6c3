// The history of a code repository (not a store): a revision's commit, its message, the files it
// changed and the lines it added, for `ctx why` and `ctx blame`. The repository is someone else's:
// its config must run nothing (no external diff, no textconv, no pager, no signature check), so every
// git here runs with those turned off, one process per question.
import { NotFoundError } from '../../errors/index.js';
import { gitError } from '../git-process.js';
import { codeGitSync } from './code-git.js';

/** Over SAFE_CONFIG: what a code repository's config could otherwise make git run or print differently. */
const CODE_CONFIG = ['-c', 'core.quotePath=false', '-c', 'log.showSignature=false', '-c', 'color.ui=never', '-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', '-c', 'diff.relative=false', '-c', 'log.follow=false'];
/** Diff options that keep a repository's drivers out: no external diff, no textconv, no colour. */
const DIFF_SAFE = ['--no-ext-diff', '--no-textconv', '--no-color'];

export interface CodePerson {
  name: string;
  email: string;
  /** ISO 8601 with the offset git recorded */
  date: string;
}

export interface CodeCommit {
  /** 40 (or 64) hex */
  sha: string;
  parents: string[];
  author: CodePerson;
  committer: CodePerson;
  /** the full message, as git stores it (trailing newline removed) */
  message: string;
}

/** One file a commit changed, as `git show --name-status` lists it (a merge: the combined diff). */
export interface CodeFileChange {
  /** A, M, D, T, R, C, or a merge's letters per parent (`MM`) */
  status: string;
  /** relative to the repository's top */
  path: string;
  /** a rename's or copy's source */
  from?: string;
}

/** The lines a commit added to one file (against its first parent; a root commit: every line). */
export interface AddedLines {
  path: string;
  /** [new line number, text] in file order */
  lines: [number, string][];
}

/** git in `cwd` with the caller's environment; a failure throws git's first error line, unless `what` is empty. */
function git(cwd: string, args: string[], what: string): { status: number | null; stdout: string } {
  const r = codeGitSync(cwd, [...CODE_CONFIG, ...args], { env: process.env, maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  if (r.status !== 0 && what) throw gitError(what, r.status, r.err);
  return { status: r.status, stdout: r.out };
}

/** `rev` in the repository at `cwd` → its commit's sha; NotFoundError (exit 4) when it names none. */
export function resolveCodeRevision(cwd: string, rev: string): string {
  return resolveCode(cwd, rev).sha;
}

/** `rev` in the repository at `cwd` → its commit's sha and the work tree's top (one git process). */
export function resolveCode(cwd: string, rev: string): { sha: string; top: string } {
  const r = git(cwd, ['rev-parse', '--show-toplevel', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], '');
  const [top, sha] = r.stdout.split('\n');
  if (r.status === 0 && /^[0-9a-f]{40,64}$/.test(sha ?? '')) return { sha, top };
  if (r.status === 128 || !top) throw new NotFoundError(`not in a git work tree: ${cwd}`, { hint: 'run it inside the code repository, or give --repo DIR' });
  throw new NotFoundError(`no commit '${rev}' in the code repository ${top}`, { hint: 'give a commit, branch or tag of it (git log --oneline)' });
}

const INFO = ['%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join('%x00');

/** A commit's parents, author, committer and full message. */
export function codeCommit(cwd: string, sha: string): CodeCommit {
  const out = git(cwd, ['show', '-s', '--no-show-signature', `--format=${INFO}`, '--end-of-options', sha], 'show').stdout;
  const [h, p, an, ae, ad, cn, ce, cd, ...body] = out.split('\0');
  return {
    sha: h,
    parents: p ? p.split(' ') : [],
    author: { name: an, email: ae, date: ad },
    committer: { name: cn, email: ce, date: cd },
    message: body.join('\0').replace(/\n+$/, ''),
  };
}

/** The files a commit changed, as `git show` lists them: a merge's combined diff, a root's every file. */
export function changedFiles(cwd: string, sha: string): CodeFileChange[] {
  const out = git(cwd, ['show', '--no-show-signature', '--format=', '--name-status', '-z', ...DIFF_SAFE, '--end-of-options', sha], 'show').stdout;
  const fields = out.split('\0');
  const files: CodeFileChange[] = [];
  for (let i = 0; i + 1 < fields.length; ) {
    const status = fields[i++].trim();
    if (status === '') continue;
    if (/^[RC]/.test(status)) {
      const from = fields[i++];
      files.push({ status: status[0], path: fields[i++], from });
    } else files.push({ status, path: fields[i++] });
  }
  return files;
}

/** The lines a commit added, file by file (`git diff -U0` against its first parent; a root: against nothing). */
export function addedLines(cwd: string, sha: string): AddedLines[] {
  const out = git(cwd, ['show', '--no-show-signature', '--format=', '-U0', '--diff-merges=first-parent', '--no-renames', ...DIFF_SAFE, '--end-of-options', sha], 'show').stdout;
  return parseAddedLines(out);
}

/** `git diff -U0` output → the added lines of each file, with their new line numbers. */
export function parseAddedLines(diff: string): AddedLines[] {
  const files: AddedLines[] = [];
  let cur: AddedLines | null = null;
  let line = 0;
  let inHunk = false;
  for (const l of diff.split('\n')) {
    if (l.startsWith('diff --git ')) {
      cur = null;
      inHunk = false;
    } else if (!inHunk && l.startsWith('+++ ')) {
      const path = diffPath(l.slice(4));
      cur = path === null ? null : { path, lines: [] };
      if (cur) files.push(cur);
    } else if (l.startsWith('@@ ')) {
      const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
      line = m ? Number(m[1]) : 0;
      inHunk = m !== null;
    } else if (inHunk && cur && l.startsWith('+')) cur.lines.push([line++, l.slice(1)]);
  }
  return files.filter((f) => f.lines.length > 0);
}

/** `b/path` or a C-quoted `"b/pa\th"` → path; /dev/null → null. */
function diffPath(s: string): string | null {
  if (s === '/dev/null') return null;
  const p = s.startsWith('"') ? unquote(s) : s.replace(/\t$/, '');
  return p.startsWith('b/') ? p.slice(2) : p;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** git's C quoting undone (octal escapes are bytes of UTF-8). */
function unquote(s: string): string {
  const bytes: number[] = [];
  for (let i = 1; i < s.length - 1; i++) {
    const ch = String.fromCodePoint(s.codePointAt(i)!);
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      i += ch.length - 1;
      continue;
    }
    const next = s[++i];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(s.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}
