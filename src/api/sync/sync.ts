// api/sync: the store and its remotes (push, fetch, pull, remote config, saves as tags, secret scans before a push). Imports api/state, api/write, api/read and api/repo.
// push, fetch and pull: fast-forward only, per-ref reports, notes merged by union, nothing lost.
import { mergeNotes } from '../../store/notes-merge.js';
import { checkBranchName, refs } from '../../store/refs.js';
import { foreignCommits } from '../../store/context-commits.js';
import { isAncestor } from '../../store/commit-graph.js';
import { ConflictError } from '../../errors/index.js';
import { shortId } from '../../core/ids.js';
import type { Transport } from '../../store/sync/transport.js';
import { open, report, shortRef as short } from './remote-open.js';
import { backfillSmall } from './clone-backfill.js';
import { promisorRemote } from '../../store/partial.js';
import { forgedStateWarnings, refuseForgedState } from '../state/check.js';
import type { RepoContext } from '../repo/repo-context.js';
import type { RefReport, SyncOptions, SyncReport } from './sync-types.js';

export { push, SCRATCH_FORKS } from './push.js';
export type { RefReport, SyncOptions, SyncReport } from './sync-types.js';


/** Remote-tracking branches, tags and fetched notes: what a fetch may write. */
function fetchedRefs(ctx: RepoContext, remote: string): Map<string, string> {
  const notes = ctx.refs.read(refs.remoteNotes(remote));
  return new Map([
    ...ctx.refs.list(refs.remotePrefix(remote)).map((r) => [r.ref, r.oid] as [string, string]),
    ...ctx.refs.list(refs.tags).map((r) => [r.ref, r.oid] as [string, string]),
    ...(notes ? [[refs.remoteNotes(remote), notes] as [string, string]] : []),
  ]);
}

function remoteRefOf(remote: string, local: string): string {
  if (local.startsWith(refs.remotePrefix(remote))) return refs.branch(local.slice(refs.remotePrefix(remote).length));
  if (local === refs.remoteNotes(remote)) return refs.notes;
  return local;
}

export async function fetch(ctx: RepoContext, name: string | undefined, opts: SyncOptions = {}): Promise<SyncReport> {
  const { remote, t } = await open(ctx, name, opts);
  const before = fetchedRefs(ctx, remote.name);
  // listed first on every transport: every advertised name is checked before anything is written
  // (isomorphic-git also fetches ref by ref from the list; the git binary fetches with refspecs)
  const rejected = opts.fresh && t.name === 'git' ? await listBesideFetch(t) : await t.fetch(await t.list());
  const after = fetchedRefs(ctx, remote.name);
  // a partial clone: the new commits' meta.json and summaries come now, in one batch, so listings stay offline
  if (promisorRemote(ctx.gitdir) === remote.name) {
    const fresh = [...after].filter(([k, v]) => before.get(k) !== v).map(([, v]) => v);
    if (fresh.length) await backfillSmall(ctx, remote.name, opts.env ?? process.env, { tips: fresh, not: [...before.values()] });
  }
  const out: RefReport[] = [];
  const headOf = ctx.refs.reader(refs.heads);
  for (const [local, oid] of after) {
    const old = before.get(local) ?? null;
    if (local.startsWith(refs.tags) && old === oid) continue; // local tags the fetch did not touch
    let status = 'up to date';
    if (old === null) status = 'new';
    else if (old !== oid) status = (await isAncestor(ctx.engine, old, oid)) ? 'fast-forward' : 'forced update';
    const branch = local.startsWith(refs.remotePrefix(remote.name)) ? remoteRefOf(remote.name, local) : null;
    const mine = branch ? headOf(branch) : null;
    const diverged = mine !== null && !(await isAncestor(ctx.engine, mine, oid)) && !(await isAncestor(ctx.engine, oid, mine));
    out.push({
      ref: remoteRefOf(remote.name, local),
      local,
      old,
      new: oid,
      status,
      ok: true,
      diverged,
      ...(diverged ? { hint: `${short(branch!)} diverged: yours ${shortId(mine!)}, ${remote.name}/${short(branch!)} ${shortId(oid)}; both kept` } : {}),
    });
  }
  for (const r of rejected) {
    const cur = ctx.refs.read(r.ref);
    out.push({ ref: remoteRefOf(remote.name, r.ref), local: r.ref, old: cur, new: cur, status: `rejected: ${r.reason}`, ok: false, diverged: false, hint: 'a fetch never moves an existing local tag' });
  }
  const merged = await mergeNotes(ctx.engine, ctx.refs, refs.remoteNotes(remote.name), ctx.signature(), `Notes merged by 'ctx fetch' from ${remote.name}\n`);
  if (merged.status !== 'up to date' || ctx.refs.read(refs.remoteNotes(remote.name)))
    out.push({ ref: refs.notes, local: refs.notes, old: merged.old, new: merged.new, status: merged.status, ok: true, diverged: false });
  const warnings = await forgedStateWarnings(ctx, remote.name, out);
  return { ...report(remote, t, out), ...(warnings.length ? { warnings } : {}) };
}

/**
 * The git binary fetches by refspecs, so its listing only checks names: for a store being created (removed
 * whole when this fails) it runs beside the fetch instead of a round trip before it, and its refusal wins.
 */
async function listBesideFetch(t: Transport) {
  const [listed, fetched] = await Promise.allSettled([t.list(), t.fetch(new Map())]);
  if (listed.status === 'rejected') throw listed.reason;
  if (fetched.status === 'rejected') throw fetched.reason;
  return fetched.value;
}

/** fetch, then fast-forward the local branches that track (or create the ones named); divergent ones keep both tips. */
export async function pull(ctx: RepoContext, name: string | undefined, opts: SyncOptions = {}): Promise<SyncReport> {
  const named = opts.branches && [...new Set(opts.branches.map((b) => checkBranchName(b)))];
  return moveBranches(ctx, await fetch(ctx, name, opts), named);
}

/**
 * Pull's second half, on a fetch's report: create or fast-forward the branches (`named`, else the tracking ones), reported after the fetched refs.
 * `fresh`: the store is being created (a clone), so nothing else writes it: the new branches go into packed-refs in one write.
 */
export async function moveBranches(ctx: RepoContext, fetched: SyncReport, named: readonly string[] | undefined, fresh = false): Promise<SyncReport> {
  const remote = fetched.remote;
  const headOf = ctx.refs.reader(refs.heads);
  const moving = pulled(ctx, remote, named).map((p) => ({ ...p, mine: headOf(p.branch) }));
  // only the branches pull may move are checked: a remote of 100,000 branches costs what it shares with us
  await refuseForgedState(ctx, remote, moving.filter((p) => p.theirs !== null).map((p) => p.branch.slice(refs.heads.length)));
  // which tips are another tool's commits: one batched read for all, not one per branch
  const foreign = await foreignCommits(ctx.engine, moving.flatMap((p) => (p.theirs !== null && p.theirs !== p.mine ? [p.theirs] : [])));
  const created: { ref: string; oid: string }[] = [];
  for (const { branch, theirs, mine } of moving) {
    const r: RefReport = { ref: branch, local: branch, old: mine, new: theirs, status: '', ok: true, diverged: false };
    if (theirs === null) {
      fetched.refs.push({ ...r, new: mine, status: `rejected: no such branch on ${remote}`, ok: false, hint: `ctx log --all lists ${remote}'s branches as ${remote}/NAME` });
      continue;
    }
    try {
      if (mine === theirs || (mine !== null && (await isAncestor(ctx.engine, theirs, mine)))) Object.assign(r, { status: 'up to date', new: mine });
      else if (foreign.has(theirs)) {
        Object.assign(r, { status: 'rejected: not a context commit', ok: false, new: mine, hint: `${remote}/${short(branch)} (${shortId(theirs)}) has no meta.json: another tool's commit, left on ${remote}/${short(branch)}` });
      } else if (mine === null && fresh) {
        created.push({ ref: branch, oid: theirs });
        r.status = 'new';
      } else if (mine === null || (await isAncestor(ctx.engine, mine, theirs))) {
        ctx.refs.update(branch, theirs, mine);
        r.status = mine === null ? 'new' : 'fast-forward';
      } else {
        Object.assign(r, {
          status: 'rejected: diverged',
          ok: false,
          diverged: true,
          new: mine,
          hint: `both tips kept: yours on ${short(branch)} (${shortId(mine)}), ${remote}/${short(branch)} (${shortId(theirs)}); fork one to keep working on both`,
        });
      }
    } catch (e) {
      if (!(e instanceof ConflictError)) throw e;
      Object.assign(r, { status: 'rejected: branch moved', ok: false, new: ctx.refs.read(branch), hint: 'a checkpoint moved it meanwhile; pull again' });
    }
    fetched.refs.push(r);
  }
  ctx.refs.createPacked(created);
  fetched.ok = fetched.refs.every((x) => x.ok);
  return fetched;
}

/**
 * The branches a pull moves and the remote's tip of each (null: the remote has none): the ones named,
 * else every local branch the remote also has, as git's tracking branches. Never one per remote
 * branch: a remote's 100,000 branches stay remote-tracking refs.
 */
function pulled(ctx: RepoContext, remote: string, named: readonly string[] | undefined): { branch: string; theirs: string | null }[] {
  const names = named ?? ctx.refs.scan(refs.heads).refs.map((r) => r.ref.slice(refs.heads.length));
  const remoteOf = ctx.refs.reader(refs.remotePrefix(remote));
  const out = names.map((n) => ({ branch: refs.branch(n), theirs: remoteOf(refs.remoteBranch(remote, n)) }));
  return named ? out : out.filter((p) => p.theirs !== null);
}
