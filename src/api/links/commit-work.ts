// The work of ctx's git hooks at `git commit` time, loaded only when there is some (commit-hooks.ts). prepare-commit-msg: the sessions live in this worktree
// (the live index: never a scan of the store) are caught up, those whose tool calls wrote a staged
// file since their last linked commit (and whose lines the staged change bears out) are named in `Ctx-Context:` and `Assisted-by:` trailers and in a
// pending file in the worktree's git directory. A queued commit (commit-queue.ts: post-commit put it
// there with that file): the pending contexts' link records, and those of contexts the commit's
// message only claims once their tool calls are seen to have touched its files. post-rewrite: links
// carried from each old commit to its new one.
import { readFileSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { assistedValue, contextClaims, CONTEXT_TRAILER, ASSISTED_TRAILER } from '../../core/links.js';
import { lockSession, readState, statePath } from '../../store/capture-state.js';
import { addTrailers, commitInfo, repoName, stagedChanges, type CodeConfig } from '../../store/code/repo.js';
import { codeEnv } from '../../store/code/code-git.js';
import { plainCommitChanges, plainDirs } from '../../store/code/plain.js';
import { appendDerived, writeDerived } from '../../store/derived.js';
import { refs } from '../../store/refs.js';
import { liveSessions, markLinked, type LiveInfo, type LiveSession } from '../capture/live.js';
import { currentBranch } from '../capture/capture.js';
import { runtimeRegistry } from '../capture/sessions.js';
import { readTipMeta } from '../read/context-reader.js';
import type { RepoContext, RepoOptions } from '../repo/repo-context.js';
import type { CommitSite } from '../../store/code/repo.js';
import type { LiveCapture } from '../capture/runtime.js';
import { linkIndex, recordLink } from './records.js';
import { bearsOut, insideWorktree, toolWrites, touchedFiles } from './touches.js';
import { drainQueue, type Pending, type PendingContext, type RecordQueued, type Recorded } from './commit-queue.js';

/** One git hook's call with work to do, as commit-hooks.ts found it. */
export interface CommitJob {
  /** the hook: prepare-commit-msg, post-commit or post-rewrite */
  name: string;
  site: CommitSite;
  config: CodeConfig;
  /** the store's git directory, trusted */
  store: string;
  engine?: RepoOptions['engine'];
  env: NodeJS.ProcessEnv;
  /** prepare-commit-msg's message file (absolute) */
  msgFile?: string;
  /** post-rewrite's stdin */
  input: string;
  /** transcript bytes the live sessions' catch-up will read, when a message is written and that is known */
  catchUp?: number;
}

/** What a runtime's plug-in reads of the session whose shell tool runs a commit (`capture.shellSession`), and the runtime's name. */
export type ShellSession = LiveInfo & { runtime: string; session: string; cwd: string };

/** The session of the built-in runtime `name` whose shell tool runs this process, as its plug-in reads `env`; null: none. */
export async function shellSession(name: string, env: NodeJS.ProcessEnv): Promise<ShellSession | null> {
  const { runtime } = await import('../../runtimes/registry.js');
  const r = await runtime(name);
  const s = r.capture?.shellSession?.(env);
  return s ? { ...s, runtime: r.name } : null;
}

/** Transcript bytes not yet captured, over the worktree's live sessions, up to which a commit's work runs in V8's interpreter alone. */
export const SMALL_CATCH_UP = 64 * 1024;
/** No TurboFan and no Sparkplug (Maglev is off in node 20): what build-hook-cache.mjs sets back with `--opt --sparkplug`. */
export const INTERPRETER_ONLY = '--no-opt --no-sparkplug';

/**
 * The hook's work: the queue recorded, then prepare-commit-msg's trailers or post-rewrite's carried
 * links. V8's compilers past its interpreter (Sparkplug, TurboFan) are off for the rest of this
 * process when what the live sessions' catch-up will read is small, as it is when the runtime's hooks
 * capture every turn: the process ends moments later. They are set here, after every bundle's code
 * cache was read (a flag changed before makes V8 reject it); a catch-up of unknown size, or a large
 * one (a first capture of a long session), keeps them.
 */
export async function commitWork(job: CommitJob, note: (line: string) => void): Promise<void> {
  const { name, site, config, env, msgFile } = job;
  if (job.catchUp !== undefined && job.catchUp <= SMALL_CATCH_UP) (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(INTERPRETER_ONLY);
  const { RepoContext } = await import('../repo/repo-context.js');
  const ctx = new RepoContext(job.store, { env, engine: job.engine });
  try {
    // post-commit: a script ctx installed before the queue, which still runs node
    if (name === 'post-commit') queueHead(site, env);
    await drainWorktree(ctx, site, config, env, note);
    if (msgFile !== undefined) await prepareCommitMsg(ctx, site, config, msgFile, env, note);
    else if (name === 'post-rewrite') await postRewrite(ctx, site, config, job.input, env);
  } finally {
    await ctx.close();
  }
}

export interface Prepared {
  trailers: string[];
  contexts: PendingContext[];
}

/** prepare-commit-msg: catch up the worktree's live sessions, add the trailers of those that wrote staged files, leave the pending file. */
export async function prepareCommitMsg(ctx: RepoContext, site: CommitSite, config: CodeConfig, msgFile: string, env: NodeJS.ProcessEnv, note: (line: string) => void): Promise<Prepared> {
  const none = { trailers: [], contexts: [] };
  if (site.rebasing) return none;
  const live = liveSessions(ctx.gitdir, site.top, ctx.now());
  const claimed = contextClaims(readFileSync(msgFile, 'utf8'));
  if (live.length === 0 && claimed.length === 0) return none;
  const plain = site.plain && config.plainDiff ? { dirs: site.plain, head: site.head?.sha ?? null } : undefined;
  const staged = new Map((live.length ? stagedChanges(site.top, env, plain) : []).map((c) => [c.path, c]));
  const registry = await runtimeRegistry();
  // the plug-ins of the live sessions' runtimes alone (built-in ones: a live entry never names an executable to run)
  const runtimeOf = async (name: string) => (registry.runtimeNames().includes(name) ? await registry.runtime(name) : undefined);
  const contexts: PendingContext[] = [];
  const trailers: string[] = [];
  for (const { live: s, linked } of staged.size ? live : []) {
    const own = await runtimeOf(s.runtime);
    const tip = await caughtUpTip(ctx, own?.capture, s, note);
    if (tip === null || tip === linked?.tip) continue;
    const writes = await toolWrites(ctx, tip, linked?.tip, own);
    // a file the session wrote counts when the staged change bears its writes out: a person's later
    // commit of a file an agent once wrote (the agent's lines already committed) names no session
    const files = insideWorktree(writes.paths, s.cwd, site.top)
      .filter((f) => staged.has(f) && bearsOut(staged.get(f)!, writes.paths.filter((p) => insideWorktree([p], s.cwd, site.top)[0] === f).map((p) => writes.lines.get(p)!)))
      .sort();
    if (files.length === 0) continue;
    contexts.push({ context: tip, runtime: s.runtime, session: s.session, files });
    trailers.push(`${CONTEXT_TRAILER}: ctx-${tip}`, `${ASSISTED_TRAILER}: ${assistedValue(s.runtime, writes.model)}`);
  }
  if (contexts.length === 0 && claimed.length === 0) return none;
  addTrailers(site.top, msgFile, trailers, env, config.trailerRules);
  const { head } = site;
  const pending: Pending = { v: 1, at: ctx.now().toISOString(), store: ctx.gitdir, top: site.top, head: head?.sha ?? null, headParent: head?.parents[0] ?? null, contexts, claimed };
  writeDerived(site.pending, `${JSON.stringify(pending)}\n`);
  return { trailers, contexts };
}

/**
 * The session's tip once what its transcript holds past the chain is captured; a session a runtime
 * hook is capturing right now is taken where its hook state says. The branch comes from the capture
 * or the state: listing the session's forks would read every branch of the runtime.
 */
async function caughtUpTip(ctx: RepoContext, capture: LiveCapture | undefined, s: LiveSession, note: (line: string) => void): Promise<string | null> {
  let branch: string | undefined;
  if (capture?.catchUp) {
    const release = lockSession(ctx.gitdir, s.session);
    if (release)
      try {
        branch = await capture.catchUp(ctx, s, note);
      } catch (e) {
        note(`catch-up of ${s.session}: ${(e as Error).message}`);
      } finally {
        release();
      }
  }
  branch ??= readState(statePath(ctx.gitdir, s.session))?.branch ?? currentBranch(ctx, s.branch);
  return ctx.refs.read(refs.branch(branch));
}

/** A post-commit of a script ctx wrote before the queue (it runs node): the pending file queued with HEAD, as today's script does. */
export function queueHead(site: CommitSite, env: NodeJS.ProcessEnv): void {
  let json: string;
  try {
    json = readFileSync(site.pending, 'utf8').split('\n')[0];
    unlinkSync(site.pending);
  } catch {
    return;
  }
  if (site.head) appendDerived(site.queue, `${site.head.sha} ${json}\n`);
}

/** The commits queued in this worktree, recorded. */
export function drainWorktree(ctx: RepoContext, site: CommitSite, config: CodeConfig, env: NodeJS.ProcessEnv, note: (line: string) => void): Promise<Recorded[]> {
  return drainQueue(ctx, site.queue, site.common, recorder(ctx, env, config.origin), note);
}

/** How a queued commit is recorded, for drainQueue. */
export const recorder =
  (ctx: RepoContext, env: NodeJS.ProcessEnv, origin?: string): RecordQueued =>
  (top, common, pending, sha) =>
    recordCommit(ctx, top, common, pending, sha, env, origin);

/**
 * A queued commit's links: the pending contexts' (those whose files it committed), and those its
 * message claims once verified. Recorded when the commit was made on top of the HEAD its message was
 * prepared at, or is an amend of that HEAD (same parent); the repository read as data (codeEnv). A
 * pending file is only ever queued by the commit right after its prepare-commit-msg: each
 * prepare-commit-msg removes one left by a commit that did not happen.
 */
export async function recordCommit(ctx: RepoContext, top: string, common: string, pending: Pending, sha: string, callerEnv: NodeJS.ProcessEnv, origin?: string): Promise<Recorded | null> {
  const env = codeEnv(callerEnv);
  const head = queuedCommit(top, sha, env, pending);
  if (!head || head.sha !== sha) return null;
  const parent = head.parents[0] ?? null;
  // a commit on top of the HEAD the message was prepared at, or an amend of it (same parent)
  const amend = parent !== pending.head && parent === pending.headParent && head.sha !== pending.head;
  if (parent !== pending.head && !amend) return null;
  const { message, files } = head;
  const committed = new Set(files);
  const repo = repoName(top, common, env, origin);
  const done: string[] = [];
  for (const p of pending.contexts) {
    if (typeof p.context !== 'string' || !/^[0-9a-f]{40}$/.test(p.context) || done.includes(p.context)) continue;
    const mine = (Array.isArray(p.files) ? p.files : []).filter((f) => committed.has(f));
    if (mine.length === 0) continue;
    await recordLink(ctx, p.context, { code: head.sha, how: 'recorded', files: mine, repo });
    markLinked(ctx.gitdir, top, p.runtime, p.session, { tip: p.context, code: head.sha, at: ctx.now().toISOString() });
    done.push(p.context);
  }
  // a message that names contexts ctx did not prepare (a cherry-pick carries its message): only those whose tool calls touched these files
  // an amend's claims are its old commit's: post-rewrite carries those
  for (const claimed of amend ? [] : contextClaims(message)) {
    if (done.includes(claimed) || !(await isContext(ctx, claimed))) continue;
    const touched = await touchedFiles(ctx, claimed, files);
    if (touched.length === 0) continue;
    await recordLink(ctx, claimed, { code: head.sha, how: 'recorded', files: touched, repo });
    done.push(claimed);
  }
  return { code: head.sha, contexts: done };
}

/**
 * The queued commit, its parents and message, and the files it changed: for the plain case read
 * in-process (plain.ts), then only which of the pending files it changed, enough when every context
 * its message claims is a pending one it records anyway (its own trailers); else `git log` (commitInfo).
 */
function queuedCommit(top: string, sha: string, env: NodeJS.ProcessEnv, pending: Pending): { sha: string; parents: string[]; message: string; files: string[] } | null {
  const plain = plainDirs(top, env);
  const wanted = new Set<string>();
  for (const p of pending.contexts) for (const f of Array.isArray(p.files) ? p.files : []) if (typeof f === 'string') wanted.add(f);
  const read = plain && plainCommitChanges(plain.common, sha, [...wanted]);
  if (read) {
    const changed = new Set(read.changed);
    const recorded = (c: string) => pending.contexts.some((p) => p.context === c && Array.isArray(p.files) && p.files.some((f) => changed.has(f)));
    if (contextClaims(read.message).every(recorded)) return { sha: read.sha, parents: read.parents, message: read.message, files: read.changed };
  }
  return commitInfo(top, sha, env);
}

async function isContext(ctx: RepoContext, oid: string): Promise<boolean> {
  try {
    await readTipMeta(ctx, oid);
    return true;
  } catch {
    return false;
  }
}

/** post-rewrite: `old new [extra]` lines; every link of an old commit carried to its new one (a squash: several olds, their files joined). */
export async function postRewrite(ctx: RepoContext, site: CommitSite, config: CodeConfig, input: string, env: NodeJS.ProcessEnv): Promise<Recorded[]> {
  const pairs = input
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => p.length >= 2 && /^[0-9a-f]{40,64}$/.test(p[0]) && /^[0-9a-f]{40,64}$/.test(p[1]));
  if (pairs.length === 0) return [];
  const index = await linkIndex(ctx);
  // new commit → context → the first old commit and the files of all
  const carried = new Map<string, Map<string, { from: string; files: Set<string> }>>();
  for (const [old, next] of pairs) {
    for (const { context, link } of index.get(old) ?? []) {
      const byContext = carried.get(next) ?? carried.set(next, new Map()).get(next)!;
      const c = byContext.get(context) ?? byContext.set(context, { from: old, files: new Set() }).get(context)!;
      for (const f of link.files ?? []) c.files.add(f);
    }
  }
  if (carried.size === 0) return [];
  const repo = repoName(site.top, site.common, env, config.origin);
  const out: Recorded[] = [];
  for (const [code, byContext] of carried) {
    const already = new Set((index.get(code) ?? []).map((l) => l.context));
    const contexts: string[] = [];
    for (const [context, c] of byContext) {
      if (already.has(context)) continue;
      await recordLink(ctx, context, { code, how: 'rewritten', from: c.from, ...(c.files.size ? { files: [...c.files].sort() } : {}), repo });
      contexts.push(context);
    }
    out.push({ code, contexts });
  }
  return out;
}

