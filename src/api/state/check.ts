// Incoming state: the state writes a fetch brought, checked as `ctx verify` checks them, before pull
// moves a local branch onto them (a commit forged with git plumbing never becomes a branch's state).
// Only the commits past the local tip are read, and of those only the ones that change `state/`.
import { IntegrityError, CtxError } from '../../errors/index.js';
import { ID_PREFIX, fullId, shortId } from '../../core/ids.js';
import { STATE_DIR } from '../../core/state/record.js';
import { isAncestor } from '../../store/commit-graph.js';
import { readStoredCommits } from '../../store/context-commits.js';
import { refs } from '../../store/refs.js';
import { subtreeIn, subtreeOf } from '../../store/subtree.js';
import type { RepoContext } from '../repo/repo-context.js';
import { linksOf } from '../read/owned-chains.js';
import { verifyStateWrites, type StateProblem } from './verify.js';

/** The first-parent chain from `to` down to `from` (excluded); the whole chain when `from` is null or not on it. */
async function commitsAfter(ctx: RepoContext, from: string | null, to: string): Promise<{ links: { oid: string; tree: string }[]; base: string | null }> {
  // read in growing windows: a pull of a few commits onto a long branch reads a few commits
  for (let max = 64; ; max *= 16) {
    const links = await ctx.engine.chain(to, max);
    const at = from === null ? -1 : links.findIndex((l) => l.oid === from);
    if (at >= 0) return { links: links.slice(0, at), base: from };
    if (links.length < max) return { links, base: null };
  }
}

type Link = { oid: string; tree: string };

/** Each tip's first-parent chain (tip first) from the engine's history of all tips at once; none when it has no history or cannot give it. */
async function wholeChains(ctx: RepoContext, tips: readonly string[]): Promise<Map<string, Link[]>> {
  if (tips.length < 2 || !ctx.engine.history) return new Map();
  try {
    const hist = await ctx.engine.history([...new Set(tips)]);
    const parent = new Map(hist.map((h) => [h.oid, h.parent]));
    const tree = new Map((await linksOf(ctx.engine, hist.map((h) => h.oid))).map((l) => [l.oid, l.tree]));
    return new Map(
      tips.map((tip) => {
        const links: Link[] = [];
        for (let oid: string | null | undefined = tip; oid; oid = parent.get(oid)) links.push({ oid, tree: tree.get(oid)! });
        return [tip, links];
      }),
    );
  } catch {
    return new Map(); // each is walked alone, naming where its chain breaks
  }
}

/** The state/ subtree of each root tree (null: none, or no tree), read in batches: for many chains at once. */
async function stateSubtrees(ctx: RepoContext, roots: readonly string[]): Promise<Map<string, string | null>> {
  const ids = [...new Set(roots)];
  const out = new Map<string, string | null>();
  for (let i = 0; i < ids.length; i += 4096) {
    const batch = ids.slice(i, i + 4096);
    (await ctx.engine.readObjects(batch)).forEach((t, j) => out.set(batch[j], t?.type === 'tree' ? subtreeIn(t.data, STATE_DIR) : null));
  }
  return out;
}

/** What `ctx verify` finds wrong with the state writes from `from` (null: the root) to `to`; `state`: root trees' state/ already read. */
export async function incomingStateProblems(ctx: RepoContext, from: string | null, to: string, whole?: Link[], state?: ReadonlyMap<string, string | null>): Promise<StateProblem[]> {
  try {
    const { links, base } = whole && from === null ? { links: whole, base: null } : await commitsAfter(ctx, from, to);
    if (links.length === 0) return [];
    const known = state && links.every((l) => state.has(l.tree));
    const trees = known ? links.map((l) => state.get(l.tree)!) : (await ctx.engine.readObjects(links.map((l) => l.tree))).map((t) => (t?.type === 'tree' ? subtreeIn(t.data, STATE_DIR) : null));
    trees.push(base === null ? null : await subtreeOf(ctx.gitdir, ctx.engine, base, STATE_DIR));
    // a commit that leaves state/ as its parent had it writes no state: nothing to check
    const writes = links.filter((_, i) => trees[i] !== trees[i + 1]).map((l) => l.oid);
    if (writes.length === 0) return [];
    return await verifyStateWrites(ctx, await readStoredCommits(ctx.engine, writes));
  } catch (e) {
    // a chain that cannot be read cannot be checked: refused like a forged one
    const message = e instanceof CtxError ? e.message : String((e as Error).message ?? e).split('\n')[0];
    return [{ id: fullId(to), problem: `its state is not readable: ${message.replace(/^ctx-[0-9a-f]+: /, '')}` }];
  }
}

/** The local tip a remote tip would be checked from: the local branch, if the remote one follows it. */
async function checkedFrom(ctx: RepoContext, branch: string, theirs: string, also: string | null = null): Promise<string | null> {
  for (const base of [ctx.refs.read(branch), also]) if (base !== null && (await isAncestor(ctx.engine, base, theirs))) return base;
  return null;
}

const named = (remote: string, name: string, p: StateProblem) => `${remote}/${name}: ${shortId(p.id.slice(ID_PREFIX.length))} ${p.problem}`;

/**
 * Before pull moves any branch: each remote-tracking branch of `remote` that would fast-forward
 * (or create) a local one has its new state writes checked; the first forged one is refused
 * (IntegrityError, exit 5), no branch moved, the remote's commits kept under refs/remotes/.
 * `only`: the branch names pull moves (default: every remote-tracking branch).
 */
export async function refuseForgedState(ctx: RepoContext, remote: string, only?: readonly string[]): Promise<void> {
  const prefix = refs.remotePrefix(remote);
  const wanted = only && new Set(only);
  const headOf = ctx.refs.reader(refs.heads);
  const listed = ctx.refs.list(prefix).filter(({ ref }) => ref.slice(prefix.length) !== 'HEAD' && (!wanted || wanted.has(ref.slice(prefix.length))));
  // the branches new here (a clone's every branch): their whole chains from one history, not a walk each
  const whole = await wholeChains(ctx, listed.filter(({ ref }) => headOf(refs.branch(ref.slice(prefix.length))) === null).map((r) => r.oid));
  const state = whole.size ? await stateSubtrees(ctx, [...whole.values()].flatMap((links) => links.map((l) => l.tree))).catch(() => undefined) : undefined;
  for (const { ref, oid: theirs } of listed) {
    const name = ref.slice(prefix.length);
    const mine = headOf(refs.branch(name));
    // up to date, behind or diverged: pull moves nothing there
    if (mine !== null && (mine === theirs || !(await isAncestor(ctx.engine, mine, theirs)))) continue;
    const [p] = await incomingStateProblems(ctx, mine, theirs, whole.get(theirs), state);
    if (p) throw new IntegrityError(`pull ${named(remote, name, p)}; no branch moved (the remote's commits stay on ${remote}/${name}: ctx verify ${remote}/${name})`);
  }
}

/** fetch's warning for each remote-tracking branch it moved onto a forged state write (kept: pull refuses it). */
export async function forgedStateWarnings(ctx: RepoContext, remote: string, moved: readonly { local: string; old: string | null; new: string | null }[]): Promise<string[]> {
  const prefix = refs.remotePrefix(remote);
  const out: string[] = [];
  let headOf: ((ref: string) => string | null) | null = null;
  for (const r of moved) {
    if (!r.local.startsWith(prefix) || r.new === null || r.old === r.new) continue;
    const name = r.local.slice(prefix.length);
    // only the branches that track: a remote's other branches are checked when pull is asked for them
    // one scan of the branches, once there is a moved one to look up
    if (name === 'HEAD' || (headOf ??= ctx.refs.reader(refs.heads))(refs.branch(name)) === null) continue;
    const [p] = await incomingStateProblems(ctx, await checkedFrom(ctx, refs.branch(name), r.new, r.old), r.new);
    if (p) out.push(`warning: ${named(remote, name, p)}; kept there, ctx pull refuses it`);
  }
  return out;
}
