// api/links git hooks: what ctx's git hooks do at `git commit` time. prepare-commit-msg: the sessions
// live in this worktree (the live index: never a scan of the store) are caught up, those whose tool
// calls wrote a staged file since their last linked commit are named in `Ctx-Context:` and
// `Assisted-by:` trailers and in a pending file in the worktree's git directory. post-commit is a
// shell script (git-hooks.ts) that queues the new commit with that file (commit-queue.ts); the link
// records are written by the next ctx process, first of all the next commit hook. post-rewrite:
// links carried from each old commit to its new one. This file decides cheaply whether there is
// work without the store's code or any runtime's plug-in (dist/commit.cjs, which `ctx hook git` runs
// first); commit-work.ts, loaded then (from dist/hook.cjs), does it.
import { existsSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { contextClaims } from '../../core/links.js';
import { codeConfig, commitPlace, siteHead } from '../../store/code/repo.js';
import { locateStore } from '../../store/repo.js';
import { checkStoreTrust } from '../../store/trust.js';
import { liveSessions, recordLive, type LinkedMark, type LiveSession } from '../capture/live.js';
import { readState, statePath } from '../../store/capture-state.js';
import type { RepoOptions } from '../repo/repo-context.js';
import type { CommitJob, ShellSession } from './commit-work.js';

/** The config key that turns the hooks off in a code repository: `git config ctx.links false` (read by codeConfig). */
export const LINKS_KEY = 'ctx.links';
export type { CommitSite } from '../../store/code/repo.js';

export const COMMIT_HOOKS = ['prepare-commit-msg', 'post-commit', 'post-rewrite'] as const;

/** commit-work.ts's functions, as the caller loads them: from its own bundle, or dist/hook.cjs for dist/commit.cjs. */
export interface CommitWorker {
  /** the hook's work (commit-work.ts) */
  commitWork(job: CommitJob, note: (line: string) => void): Promise<void>;
  /** the session of the built-in runtime `name` whose shell tool runs this process, as its plug-in reads `env` */
  shellSession(name: string, env: NodeJS.ProcessEnv): Promise<ShellSession | null>;
}

/**
 * One call of ctx's git hook `name` with git's arguments: the worktree from `cwd`, the store found as
 * the CLI finds it (walking up from the worktree's top, $CTX_STORE, --store) and trusted, then the
 * hook's work, loaded by `opts.work` (once) only when there is some. Nothing happens outside a worktree,
 * without a store, or with `ctx.links` false. `call.gitdir` is set once the store is known, so a
 * failure can be logged there.
 */
export async function commitHook(name: string, args: string[], opts: { store?: string; engine?: RepoOptions['engine']; env: NodeJS.ProcessEnv; cwd: string; stdin: () => Promise<string>; work: () => Promise<CommitWorker> }, call: { gitdir?: string }, note: (line: string) => void): Promise<void> {
  if (!(COMMIT_HOOKS as readonly string[]).includes(name)) return;
  const { env, cwd } = opts;
  // HEAD is read once there is work (siteHead)
  const site = commitPlace(cwd, env);
  if (site === null) return;
  // a pending file a commit that did not happen left behind (an empty message) is no one's
  if (name === 'prepare-commit-msg') rmIfThere(site.pending);
  const config = codeConfig(site.top, env, site.plain);
  if (config.links === false) return;
  const loc = locateStore(opts.store, env, cwd, site.top);
  if (!loc.exists) return;
  checkStoreTrust(loc.gitdir, env);
  call.gitdir = loc.gitdir;
  const msgFile = name === 'prepare-commit-msg' && args[0] !== undefined ? resolve(cwd, args[0]) : undefined;
  // a commit the agent runs through its shell tool mid-turn: its session is live before any hook of the runtime saw it
  let worker: Promise<CommitWorker> | undefined;
  const work = () => (worker ??= opts.work());
  if (name === 'prepare-commit-msg') await noteShellSession(loc.gitdir, env, work);
  // the commits post-commit queued are recorded first: the live index's marks of what is linked come from them
  const queued = existsSync(site.queue);
  // the worktree's live sessions, read once: a message to write (not a rebase's) is what they can link
  const writing = msgFile !== undefined && !site.rebasing;
  const live = writing ? liveSessions(loc.gitdir, site.top, clock(env)) : [];
  // nothing to do, decided without loading the store's code: nothing queued, no live session here and no claim in the message
  if (name === 'prepare-commit-msg' && !queued && (!writing || (!live.some((l) => !idle(loc.gitdir, l)) && contextClaims(readFileSync(msgFile!, 'utf8')).length === 0))) return;
  const input = name === 'post-rewrite' ? await opts.stdin() : '';
  const withHead = siteHead(site, env);
  if (withHead === null) return;
  // HEAD not a loose commit: the site is git's, and so is its config, as for a repository not read in-process
  const workConfig = site.plain && !withHead.plain ? codeConfig(withHead.top, env) : config;
  await (await work()).commitWork({ name, site: withHead, config: workConfig, store: loc.gitdir, engine: opts.engine, env, msgFile, input, catchUp: writing ? pendingCatchUp(loc.gitdir, live) : undefined }, note);
}

function rmIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}

/**
 * The session whose shell tool runs this commit, as its runtime reads the environment, recorded live
 * (in the worktree of its cwd); only runtimes whose variables are set are loaded, through `work`
 * (dist/commit.cjs holds the registry's lists, not the plug-ins).
 */
async function noteShellSession(store: string, env: NodeJS.ProcessEnv, work: () => Promise<CommitWorker>): Promise<void> {
  const { shellRuntimes } = await import('../../runtimes/registry.js');
  for (const name of await shellRuntimes(env)) {
    const s = await (await work()).shellSession(name, env);
    if (s) recordLive(store, s.runtime, s.session, s.cwd, { branch: s.branch, ...(s.transcript ? { transcript: s.transcript } : {}), ...(s.input !== undefined ? { input: s.input } : {}) }, clock(env));
  }
}

/** Transcript bytes the live sessions' catch-up will read; undefined: not known (a session without a transcript, or one that cannot be read). */
function pendingCatchUp(store: string, live: { live: LiveSession }[]): number | undefined {
  let pending = 0;
  for (const { live: s } of live) {
    if (s.transcript === undefined) return undefined;
    const state = readState(statePath(store, s.session));
    try {
      pending += statSync(s.transcript).size - (state?.transcript === s.transcript ? state.offset : 0);
    } catch {
      return undefined;
    }
  }
  return pending;
}

/**
 * A session with nothing to link: linked at its hook state's tip, its transcript no longer than the
 * state's offset (no tool call since). A session without that certainty is not idle.
 */
function idle(store: string, { live, linked }: { live: LiveSession; linked: LinkedMark | null }): boolean {
  if (!linked || live.transcript === undefined) return false;
  const state = readState(statePath(store, live.session));
  if (state?.tip !== linked.tip || state.transcript !== live.transcript) return false;
  try {
    return statSync(live.transcript).size === state.offset;
  } catch {
    return false;
  }
}

/** CTX_NOW (tests), else the clock: as RepoContext reads it. */
const clock = (env: NodeJS.ProcessEnv) => (env.CTX_NOW && !Number.isNaN(Date.parse(env.CTX_NOW)) ? new Date(env.CTX_NOW) : new Date());

export { appendHookLog } from '../../store/derived.js';
