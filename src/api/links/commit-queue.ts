// The commit queue: ctx's post-commit hook is a shell script that starts no node. It appends one line,
// `<new HEAD> <the pending file's JSON>`, to `ctx-queue` in the worktree's git directory, and the next
// ctx process that needs the links records them: the next commit hook of that worktree, and `ctx why`,
// `blame`, `trace`, `log` and `show` (every worktree of the repository they run in). A queue is
// claimed by renaming it, so two processes never record one line; every line is checked as someone
// else's input (a commit id, a worktree of this very repository, this store) and a bad one is dropped
// with a one-line reason in the store's hook log.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync, readdirSync, realpathSync, renameSync, unlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { worktreeTop } from '../../store/code/repo.js';
import { appendDerived, appendHookLog } from '../../store/derived.js';
import type { RepoContext } from '../repo/repo-context.js';

export interface PendingContext {
  /** the context commit, 40 hex: the session's tip after its catch-up */
  context: string;
  runtime: string;
  session: string;
  /** the staged files its tool calls wrote, relative to the worktree's top */
  files: string[];
}

/** The pending file: what post-commit records once the commit exists. */
export interface Pending {
  v: 1;
  at: string;
  /** the store the contexts are in */
  store: string;
  top: string;
  /** HEAD when the message was prepared (null: unborn), and its first parent (an amend's commit has that parent) */
  head: string | null;
  headParent: string | null;
  contexts: PendingContext[];
  /** contexts the message named already (a cherry-pick's): recorded only once verified */
  claimed: string[];
}

/** What recording one code commit's links did. */
export interface Recorded {
  code: string;
  /** contexts (40 hex) whose links were recorded */
  contexts: string[];
}

/** The queue's name in a worktree's git directory (`git rev-parse --git-path ctx-queue`). */
export const QUEUE = 'ctx-queue';
const CLAIMED = `${QUEUE}.claimed.`;
/** A queue longer than this is not read: no hook writes one. */
const MAX_QUEUE = 8 * 1024 * 1024;

/** Records one queued commit (commit-work.ts), given where its worktree is. */
export type RecordQueued = (top: string, common: string, pending: Pending, sha: string) => Promise<Recorded | null>;

/** The queue file `queue` (in the git directory `gitdir`) recorded and gone; lines for another store are put back. */
export async function drainQueue(ctx: RepoContext, queue: string, common: string, record: RecordQueued, note: (line: string) => void): Promise<Recorded[]> {
  const gitdir = dirname(queue);
  const claims = [...staleClaims(gitdir), claim(queue)].filter((c): c is string => c !== null);
  const out: Recorded[] = [];
  for (const file of claims) {
    const text = readQueue(file, note);
    const others: string[] = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const entry = parseLine(line, gitdir);
      if (typeof entry === 'string') {
        note(`queue ${queue}: line dropped: ${entry}`);
        continue;
      }
      // a line of another store waits for a ctx process of that store
      if (!sameFile(entry.pending.store, ctx.gitdir)) {
        others.push(line);
        continue;
      }
      try {
        const r = await record(entry.pending.top, common, entry.pending, entry.sha);
        if (r) out.push(r);
      } catch (e) {
        note(`queue ${queue}: ${entry.sha}: ${(e as Error).message}`);
      }
    }
    if (others.length) appendDerived(queue, others.map((l) => `${l}\n`).join(''));
    try {
      unlinkSync(file);
    } catch {}
  }
  return out;
}

/** The git directories of the repository holding `cwd` (its main worktree's and those under `<common>/worktrees/`) that hold a queue; read from files, no git started. */
export function queuedDirs(cwd: string): { common: string; dirs: string[] } | null {
  const top = worktreeTop(cwd);
  const common = top === null ? null : commonDir(top);
  if (common === null) return null;
  const dirs = [common];
  try {
    for (const d of readdirSync(join(common, 'worktrees'))) dirs.push(join(common, 'worktrees', d));
  } catch {}
  const queued = dirs.filter((d) => {
    try {
      return readdirSync(d).some((f) => f === QUEUE || f.startsWith(CLAIMED));
    } catch {
      return false;
    }
  });
  return queued.length ? { common, dirs: queued } : null;
}

/** A note for the store's hook log, as the git hooks write one. */
export const queueNote = (ctx: RepoContext) => (message: string) => {
  try {
    appendHookLog(ctx.gitdir, `${new Date().toISOString()}\tgit\tqueue\t${message.replace(/\s*\n\s*/g, ' ')}\n`);
  } catch {
    // nowhere to log
  }
};

/** The queue renamed to a name of this process's; null when there is none (or another process took it). */
function claim(queue: string): string | null {
  const to = `${join(dirname(queue), CLAIMED)}${process.pid}`;
  try {
    renameSync(queue, to);
    return to;
  } catch {
    return null;
  }
}

/** Claims left by a process that is gone (it died mid-drain): taken over. */
function staleClaims(gitdir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(gitdir).filter((f) => f.startsWith(CLAIMED));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const f of names) {
    const pid = Number(f.slice(CLAIMED.length));
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) continue;
    const to = join(gitdir, `${CLAIMED}${process.pid}.${out.length}`);
    try {
      renameSync(join(gitdir, f), to);
      out.push(to);
    } catch {}
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A claimed queue's text: a regular file opened without following a link, at most MAX_QUEUE bytes. */
function readQueue(file: string, note: (line: string) => void): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    note(`queue ${file}: not read: ${(e as NodeJS.ErrnoException).code === 'ELOOP' ? 'a symbolic link' : (e as Error).message}`);
    return '';
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return note(`queue ${file}: not read: not a regular file`), '';
    if (st.size > MAX_QUEUE) return note(`queue ${file}: not read: ${st.size} bytes, more than ${MAX_QUEUE}`), '';
    const buf = Buffer.alloc(st.size);
    let n = 0;
    while (n < buf.length) {
      const r = readSync(fd, buf, n, buf.length - n, n);
      if (r === 0) break;
      n += r;
    }
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const HEX40 = /^[0-9a-f]{40}$/;

/** One queue line → the commit and its pending record, or why it is refused. */
export function parseLine(line: string, gitdir: string): { sha: string; pending: Pending } | string {
  const sp = line.indexOf(' ');
  const sha = line.slice(0, sp);
  if (sp < 0 || !SHA.test(sha)) return `not '<commit id> <json>': ${JSON.stringify(line.slice(0, 80))}`;
  let p: Pending;
  try {
    p = JSON.parse(line.slice(sp + 1)) as Pending;
  } catch {
    return `${sha}: its record is not JSON`;
  }
  if (p === null || typeof p !== 'object' || p.v !== 1) return `${sha}: not a version 1 record`;
  if (typeof p.store !== 'string' || !isAbsolute(p.store) || typeof p.top !== 'string' || !isAbsolute(p.top) || typeof p.at !== 'string') return `${sha}: store, top or at missing`;
  if (!(p.head === null || (typeof p.head === 'string' && SHA.test(p.head))) || !(p.headParent === null || (typeof p.headParent === 'string' && SHA.test(p.headParent)))) return `${sha}: head is not a commit id`;
  if (!Array.isArray(p.contexts) || !p.contexts.every((c) => c && typeof c === 'object' && typeof c.context === 'string' && HEX40.test(c.context) && typeof c.runtime === 'string' && typeof c.session === 'string' && Array.isArray(c.files) && c.files.every((f) => typeof f === 'string')))
    return `${sha}: contexts malformed`;
  if (!Array.isArray(p.claimed) || !p.claimed.every((c) => typeof c === 'string' && HEX40.test(c))) return `${sha}: claimed malformed`;
  // git runs only in a worktree whose .git leads back to the git directory the queue is in
  if (!sameFile(gitDirOf(p.top), gitdir)) return `${sha}: ${p.top} is not the worktree of ${gitdir}`;
  return { sha, pending: p };
}

/** The git directory a worktree's `.git` (a directory, or a `gitdir:` file) leads to; null when none. */
function gitDirOf(top: string): string | null {
  const dot = join(top, '.git');
  try {
    const st = lstatSync(dot);
    if (st.isDirectory()) return dot;
    if (!st.isFile() || st.size > 4096) return null;
    const m = /^gitdir: (.+)$/m.exec(readFileSync(dot, 'utf8'));
    return m ? resolve(top, m[1].trim()) : null;
  } catch {
    return null;
  }
}

/** The common git directory of the worktree at `top`, read from its files (no git started); null when it has none. */
function commonDir(top: string): string | null {
  const own = gitDirOf(top);
  if (own === null) return null;
  try {
    return resolve(own, readFileSync(join(own, 'commondir'), 'utf8').trim());
  } catch {
    return own;
  }
}

function sameFile(a: string | null, b: string): boolean {
  if (a === null) return false;
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
