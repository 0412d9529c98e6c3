// A code repository as the web view reads it: its work tree's top, a commit id from its hex prefix,
// and a commit's diff parsed into files and hunks. The repository is someone else's: git runs with SAFE_CONFIG, no
// external diff, no textconv, no signature check (gpg.program), fixed prefixes and quoting, and
// without the GIT_* variables that would point it at another repository.
import { codeEnv, codeGit, codeGitSync } from './code-git.js';

/** Config a code repository may set that would change what `git show` prints or run a program. */
const CODE_CONFIG = ['-c', 'log.showSignature=false', '-c', 'core.quotePath=true', '-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', '-c', 'i18n.logOutputEncoding=UTF-8', '-c', 'color.ui=false', '-c', 'diff.suppressBlankEmpty=false'];
/** What `git show` may print for one commit; past it the diff is cut. */
const MAX_OUTPUT = 8 << 20;
/** Diff lines sent at most (over every file); the rest of the files come without hunks, `cut`. */
export const MAX_DIFF_LINES = 20_000;

export interface DiffLine {
  /** ' ' context, '+' added, '-' removed, '\' a note such as "No newline at end of file" */
  op: ' ' | '+' | '-' | '\\';
  /** its line number before (null for an added line or a note) and after (null for a removed line or a note) */
  old: number | null;
  new: number | null;
  text: string;
}

export interface Hunk {
  header: string;
  lines: DiffLine[];
}

export interface DiffFile {
  path: string;
  /** the path before a rename or copy, else null */
  old_path: string | null;
  status: 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';
  binary: boolean;
  hunks: Hunk[];
  /** hunks left out: the diff was longer than the server sends */
  cut: boolean;
}

/** The top of the git work tree `path` is in, or null when it is in none (a bare repository, no repository). */
export function codeTop(path: string, env: NodeJS.ProcessEnv): string | null {
  const r = codeGitSync(path, ['-C', path, 'rev-parse', '--is-inside-work-tree', '--show-toplevel'], { env: codeEnv(env) });
  const [inside, top] = r.out.split('\n');
  return r.status === 0 && inside === 'true' && top ? top : null;
}

/** git in the code repository at `top`, to its end; stdout cut at `max` bytes (then `cut`). Throws on a failure. */
async function git(top: string, env: NodeJS.ProcessEnv, args: string[], max = MAX_OUTPUT): Promise<{ out: string; cut: boolean }> {
  const r = await codeGit(top, ['-C', top, ...CODE_CONFIG, ...args], { env: codeEnv(env), max });
  if (r.code !== 0 && !r.cut) throw new Error(r.err.split('\n').find((l) => l.trim()) ?? `git ${args[0]} exited with ${r.code}`);
  return { out: r.out.toString('utf8'), cut: r.cut };
}

/**
 * The commits whose ids start with `prefix` (4 to 64 lowercase hex): their full ids, none when no
 * commit has it. Object ids only: a branch or tag named like the prefix is not looked at.
 */
export async function codeCommitIds(top: string, env: NodeJS.ProcessEnv, prefix: string): Promise<string[]> {
  if (!/^[0-9a-f]{4,64}$/.test(prefix)) return [];
  const { out } = await git(top, env, ['rev-parse', `--disambiguate=${prefix}`]).catch(() => ({ out: '' }));
  const ids = out.split('\n').filter((l) => /^[0-9a-f]{40,64}$/.test(l));
  if (ids.length === 0) return [];
  const types = await objectTypes(top, env, ids);
  return ids.filter((_, i) => types[i] === 'commit');
}

/** Each object's type, in order. */
async function objectTypes(top: string, env: NodeJS.ProcessEnv, ids: string[]): Promise<string[]> {
  const r = await codeGit(top, ['-C', top, ...CODE_CONFIG, 'cat-file', '--batch-check=%(objecttype)'], { env: codeEnv(env), input: `${ids.join('\n')}\n` });
  return r.out.toString('utf8').split('\n').slice(0, ids.length);
}

/** A commit's diff against its first parent (a root commit: against nothing), in files and hunks. */
export async function codePatch(top: string, env: NodeJS.ProcessEnv, sha: string): Promise<DiffFile[]> {
  const patch = await git(top, env, ['show', '--no-show-signature', '--pretty=format:', '--patch', '--no-ext-diff', '--no-textconv', '--no-color', '--no-relative', '-M', '--submodule=short', '--diff-merges=first-parent', '--src-prefix=a/', '--dst-prefix=b/', sha, '--']);
  return parsePatch(patch.out, patch.cut);
}

/** `git diff` output (a/ and b/ prefixes, quoted paths) as files and hunks; at most MAX_DIFF_LINES lines in all. */
export function parsePatch(text: string, outputCut = false): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | null = null;
  let hunk: Hunk | null = null;
  let oldNo = 0;
  let newNo = 0;
  let budget = MAX_DIFF_LINES;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  // the last line of an output cut short may be a piece of one
  if (outputCut) lines.pop();
  for (const line of lines) {
    if (line.startsWith('diff --git ')) {
      file = { path: gitLinePath(line.slice(11)), old_path: null, status: 'modified', binary: false, hunks: [], cut: false };
      files.push(file);
      hunk = null;
      continue;
    }
    if (file === null) continue;
    if (hunk === null || !/^[ +\-\\]/.test(line)) {
      const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (m) {
        if (budget <= 0) {
          file.cut = true;
          hunk = null;
          continue;
        }
        hunk = { header: line, lines: [] };
        file.hunks.push(hunk);
        oldNo = Number(m[1]);
        newNo = Number(m[2]);
      } else if (hunk === null) header(file, line);
      continue;
    }
    if (budget-- <= 0) {
      file.cut = true;
      continue;
    }
    const op = line[0] as DiffLine['op'];
    const text = line.slice(1);
    if (op === ' ') hunk.lines.push({ op, old: oldNo++, new: newNo++, text });
    else if (op === '-') hunk.lines.push({ op, old: oldNo++, new: null, text });
    else if (op === '+') hunk.lines.push({ op, old: null, new: newNo++, text });
    else hunk.lines.push({ op, old: null, new: null, text });
  }
  if (outputCut && files.length) files[files.length - 1].cut = true;
  return files;
}

/** One extended header line of a file's diff. */
function header(file: DiffFile, line: string): void {
  if (line.startsWith('new file mode')) file.status = 'added';
  else if (line.startsWith('deleted file mode')) file.status = 'deleted';
  else if (line.startsWith('rename from ')) (file.status = 'renamed'), (file.old_path = unquote(line.slice(12)));
  else if (line.startsWith('rename to ')) file.path = unquote(line.slice(10));
  else if (line.startsWith('copy from ')) (file.status = 'copied'), (file.old_path = unquote(line.slice(10)));
  else if (line.startsWith('copy to ')) file.path = unquote(line.slice(8));
  else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true;
  // a name with a space ends in a tab there
  else if (line.startsWith('+++ b/') || line.startsWith('+++ "b/')) file.path = strip(unquote(line.slice(4).replace(/\t$/, '')), 'b/');
  else if (file.status === 'deleted' && (line.startsWith('--- a/') || line.startsWith('--- "a/'))) file.path = strip(unquote(line.slice(4).replace(/\t$/, '')), 'a/');
}

const strip = (path: string, prefix: string) => (path.startsWith(prefix) ? path.slice(prefix.length) : path);

/** The path a `diff --git a/X b/X` line names (the b/ side); refined by the header lines that follow. */
function gitLinePath(rest: string): string {
  if (rest.startsWith('"')) {
    const end = quotedEnd(rest);
    return strip(unquote(rest.slice(end + 2)), 'b/');
  }
  if (rest.endsWith('"')) return strip(unquote(rest.slice(rest.lastIndexOf(' "') + 1)), 'b/');
  // `a/P b/P`: both halves the same length
  const half = (rest.length - 1) / 2;
  return Number.isInteger(half) ? strip(rest.slice(half + 1), 'b/') : strip(rest.slice(rest.lastIndexOf(' b/') + 1), 'b/');
}

/** Where a C-quoted string that starts at 0 ends (its closing quote). */
function quotedEnd(s: string): number {
  for (let i = 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '"') return i;
  }
  return s.length - 1;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A path as git prints it: C-quoted (octal escapes are UTF-8 bytes) when it holds odd bytes, else as is. */
export function unquote(s: string): string {
  if (!s.startsWith('"') || !s.endsWith('"') || s.length < 2) return s;
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const n = body[++i];
    if (/[0-7]/.test(n)) {
      bytes.push(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(ESCAPES[n] ?? n.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}
