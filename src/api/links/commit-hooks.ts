// api/links git hooks: what ctx's git hooks do at `git commit` time. prepare-commit-msg: the sessions
// live in this worktree (the live index: never a scan of the store) are caught up, those whose tool
// calls wrote a staged file since their last linked commit are named in `Ctx-Context:` and
// `Assisted-by:` trailers and in a pending file in the worktree's git directory. post-commit is a
// shell script (git-hooks.ts) that queues the new commit with that file (commit-queue.ts); the link
// records are written by the next ctx process, first of all the next commit hook. post-rewrite:
// links carried from each old commit to its new one. This file decides cheaply whether there is
// work; commit-work.ts, loaded then, does it.
import { existsSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { contextClaims } from '../../core/links.js';
import { codeConfig, commitSite } from '../../store/code/repo.js';
import { locateStore } from '../../store/repo.js';
import { checkStoreTrust } from '../../store/trust.js';
import { liveSessions, recordLive, type LinkedMark, type LiveSession } from '../capture/live.js';
import { readState, statePath } from '../../store/capture-state.js';
import type { RepoOptions } from '../repo/repo-context.js';

/** The config key that turns the hooks off in a code repository: `git config ctx.links false` (read by codeConfig). */
export const LINKS_KEY = 'ctx.links';
export type { CommitSite } from '../../store/code/repo.js';

export const COMMIT_HOOKS = ['prepare-commit-msg', 'post-commit', 'post-rewrite'] as const;

/**
 * One call of ctx's git hook `name` with git's arguments: the worktree from `cwd`, the store found as
 * the CLI finds it (walking up from the worktree's top, $CTX_STORE, --store) and trusted, then the
 * hook's work. Nothing happens outside a worktree, without a store, or with `ctx.links` false.
 * `call.gitdir` is set once the store is known, so a failure can be logged there.
 */
export async function commitHook(name: string, args: string[], opts: { store?: string; engine?: RepoOptions['engine']; env: NodeJS.ProcessEnv; cwd: string; stdin: () => Promise<string> }, call: { gitdir?: string }, note: (line: string) => void): Promise<void> {
  if (!(COMMIT_HOOKS as readonly string[]).includes(name)) return;
  const { env, cwd } = opts;
  const site = commitSite(cwd, env);
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
  if (name === 'prepare-commit-msg') await noteShellSession(loc.gitdir, env);
  // the commits post-commit queued are recorded first: the live index's marks of what is linked come from them
  const queued = existsSync(site.queue);
  // the worktree's live sessions, read once: a message to write (not a rebase's) is what they can link
  const writing = msgFile !== undefined && !site.rebasing;
  const live = writing ? liveSessions(loc.gitdir, site.top, clock(env)) : [];
  // nothing to do, decided without loading the store's code: nothing queued, no live session here and no claim in the message
  if (name === 'prepare-commit-msg' && !queued && (!writing || (!live.some((l) => !idle(loc.gitdir, l)) && contextClaims(readFileSync(msgFile!, 'utf8')).length === 0))) return;
  if (writing) interpreterOnly(loc.gitdir, live);
  const input = name === 'post-rewrite' ? await opts.stdin() : '';
  const { RepoContext } = await import('../repo/repo-context.js');
  const work = await import('./commit-work.js');
  const ctx = new RepoContext(loc.gitdir, { env, engine: opts.engine });
  try {
    // post-commit: a script ctx installed before the queue, which still runs node
    if (name === 'post-commit') work.queueHead(site, env);
    await work.drainWorktree(ctx, site, config, env, note);
    if (msgFile !== undefined) await work.prepareCommitMsg(ctx, site, config, msgFile, env, note);
    else if (name === 'post-rewrite') await work.postRewrite(ctx, site, config, input, env);
  } finally {
    await ctx.close();
  }
}

function rmIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}

/** The session whose shell tool runs this commit, as its runtime reads the environment, recorded live (in the worktree of its cwd); only runtimes whose variables are set are loaded. */
async function noteShellSession(store: string, env: NodeJS.ProcessEnv): Promise<void> {
  const { runtime, shellRuntimes } = await import('../../runtimes/registry.js');
  for (const name of await shellRuntimes(env)) {
    const r = await runtime(name);
    const s = r.capture?.shellSession?.(env);
    if (s) recordLive(store, r.name, s.session, s.cwd, { branch: s.branch, ...(s.transcript ? { transcript: s.transcript } : {}), ...(s.input !== undefined ? { input: s.input } : {}) }, clock(env));
  }
}

/** Transcript bytes not yet captured, over the worktree's live sessions, up to which a commit's work runs in V8's interpreter alone. */
export const SMALL_CATCH_UP = 64 * 1024;
/** No TurboFan and no Sparkplug (Maglev is off in node 20): what build-hook-cache.mjs sets back with `--opt --sparkplug`. */
export const INTERPRETER_ONLY = '--no-opt --no-sparkplug';

/**
 * V8's compilers past its interpreter (Sparkplug, TurboFan), off for the rest of this process when
 * what the live sessions' catch-up will read is small, as it is when the runtime's hooks capture every
 * turn: the process ends moments later. Set after the bundle's code cache was read (a flag changed
 * before makes V8 reject it); a session whose transcript is not known, or a large catch-up (a first
 * capture of a long session), keeps them.
 */
function interpreterOnly(store: string, live: { live: LiveSession }[]): void {
  let pending = 0;
  for (const { live: s } of live) {
    if (s.transcript === undefined) return;
    const state = readState(statePath(store, s.session));
    try {
      pending += statSync(s.transcript).size - (state?.transcript === s.transcript ? state.offset : 0);
    } catch {
      return;
    }
  }
  if (pending <= SMALL_CATCH_UP) (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(INTERPRETER_ONLY);
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
