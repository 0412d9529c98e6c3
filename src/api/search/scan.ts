// Reading the chains' commits for a search: each commit once (forks share history, a commit goes with
// the branch that wrote it), its artifact's raw bytes checked first, only those that may hold what is
// looked for parsed into neutral messages. `scanCommits` walks the chains; `scanListed` reads commits
// already chosen and ordered (by the search index), from the store's own objects.
import { shortId } from '../../core/ids.js';
import { artifactName, COMMIT_TYPES, SYNTHETIC_TRAILER, type CommitType, type Meta } from '../../core/meta.js';
import type { NeutralMessage } from '../../core/neutral.js';
import { IntegrityError } from '../../errors/index.js';
import { knownFormat } from '../../formats/registry.js';
import type { StorageFormat } from '../../formats/format.js';
import { parseMeta, readArtifacts, readArtifactsAt, readStoredCommits } from '../../store/context-commits.js';
import type { ChainLink, GitObject } from '../../store/engine.js';
import { parseCommit } from '../../store/objects.js';
import { trailer } from '../read/context-reader.js';
import type { RepoContext } from '../repo/repo-context.js';

/** A commit to search, with where its artifact is. */
export interface Candidate {
  oid: string;
  tree: string;
  parent: Candidate | null;
  branch: string;
  /** undefined: a format this build does not know */
  format: StorageFormat | undefined;
  type: CommitType;
}

const BATCH = 4096;

/** A commit whose artifact may hold what is looked for, read into messages. */
export interface ScannedCommit {
  oid: string;
  branch: string;
  /** read when asked for (`withMeta`), else null */
  meta: Meta | null;
  messages: NeutralMessage[];
  /** the first message new in this commit (a format whose every artifact is the whole context repeats its parent's) */
  from: number;
  /** the artifact's bytes, as `mayHold` was given them */
  bytes: Uint8Array;
}

/**
 * Every commit of the chains once (tip first per branch; `ctx snapshot` commits, copies of a chain, left out),
 * its artifact's bytes handed to `mayHold` as they stream by; those it keeps are parsed, and with
 * `withMeta` their meta.json read; a commit `skip` names is walked past, not read.
 */
export async function* scanCommits(ctx: RepoContext, tips: readonly [string, string][], mayHold: (bytes: Uint8Array) => boolean, withMeta = false, skip?: (oid: string) => boolean): AsyncIterable<ScannedCommit> {
  for await (const batch of commitBatches(ctx, tips, skip)) yield* await scanBatch(ctx, batch, mayHold, withMeta);
}

/** How many commits from a tip are read one by one looking for a `stop` before the whole chain is read: as many as the engine reads in-process. */
const NEAR = 16;

/**
 * One chain read as scanCommits reads it, from `tip` down to (not including) `stop`, or its root when
 * `stop` is not on it: a stop among the tip's first NEAR commits spares reading the rest of the chain.
 */
export async function* scanChainTo(ctx: RepoContext, tip: string, stop: string | null | undefined, mayHold: (bytes: Uint8Array) => boolean, withMeta = false): AsyncIterable<ScannedCommit> {
  if (!stop) return yield* scanCommits(ctx, [['', tip]], mayHold, withMeta);
  const links = (await linksTo(ctx, tip, stop)) ?? (await ctx.engine.chain(tip));
  const batch: Candidate[] = [];
  let child: Candidate | null = null;
  for (const l of links) {
    const c = candidateOf(l, '');
    // the stop is the last one's parent (a whole-context artifact's new messages start past it), not read
    if (child) child.parent = c;
    if (l.oid === stop) break;
    child = c;
    if (searchable(c, l.message)) batch.push(c);
  }
  for (let i = 0; i < batch.length; i += BATCH) yield* await scanBatch(ctx, batch.slice(i, i + BATCH), mayHold, withMeta);
}

/** The first-parent links from `tip` to `stop` (both in), or to the root when that comes first, read one commit at a time; null past NEAR commits or at one that cannot be read (the whole chain is read then, and says what is wrong). */
async function linksTo(ctx: RepoContext, tip: string, stop: string): Promise<ChainLink[] | null> {
  const links: ChainLink[] = [];
  try {
    for (let oid: string | undefined = tip; oid !== undefined && links.length < NEAR; ) {
      const [obj] = await ctx.engine.readObjects([oid]);
      if (obj?.type !== 'commit') return null;
      const c = parseCommit(obj.data);
      links.push({ oid, tree: c.tree, message: c.message });
      if (oid === stop || c.parents.length === 0) return links;
      oid = c.parents[0];
    }
  } catch {
    return null;
  }
  return null;
}

/** A chain link as a commit to search on `branch`, its type and format from its trailers. */
export function candidateOf(l: ChainLink, branch: string): Candidate {
  return { oid: l.oid, tree: l.tree, parent: null, branch, format: knownFormat(trailer(l.message, 'Ctx-Format') ?? ''), type: trailer(l.message, 'Ctx-Type') as CommitType };
}

/** Whether a commit's messages are searched: a format read into messages, a context commit, not a compaction ctx wrote (compact, clear, restore), which copies messages the chain holds already. */
export function searchable(c: Candidate, message: string): boolean {
  if (!c.format?.toNeutral || !COMMIT_TYPES.includes(c.type)) return false;
  return !(c.type === 'compaction' && trailer(message, SYNTHETIC_TRAILER) !== undefined);
}

/** Commits of the store read from their objects (in order; a missing one or not a commit: null), with their first parent. */
export async function linksOf(ctx: RepoContext, oids: readonly string[]): Promise<((ChainLink & { parent: string | null }) | null)[]> {
  const objs = await ctx.engine.readObjects(oids);
  return objs.map((o, i) => {
    if (o?.type !== 'commit') return null;
    const c = parseCommit(o.data);
    return { oid: oids[i], tree: c.tree, message: c.message, parent: c.parents[0] ?? null };
  });
}

/**
 * The commits listed (each with its branch), in that order, read as `scanCommits` reads them; each is
 * searchable (`searchable`). A whole-context artifact's parent is read for where its new messages start.
 */
export async function* scanListed(ctx: RepoContext, listed: readonly Candidate[], mayHold: (bytes: Uint8Array) => boolean, withMeta = false): AsyncIterable<ScannedCommit> {
  for (let i = 0; i < listed.length; i += BATCH) yield* await scanBatch(ctx, listed.slice(i, i + BATCH), mayHold, withMeta);
}

/** The parents of whole-context candidates, set from their commit objects (`parents`: each candidate's first parent). */
export async function withParents(ctx: RepoContext, cands: readonly Candidate[], parents: readonly (string | null)[]): Promise<void> {
  const whole = cands.flatMap((c, i) => (parents[i] !== null && (c.type === 'snapshot' || c.format?.concatRule === 'snapshot') ? [i] : []));
  const links = await linksOf(ctx, whole.map((i) => parents[i]!));
  whole.forEach((i, k) => {
    const l = links[k];
    if (l) cands[i].parent = candidateOf(l, cands[i].branch);
  });
}

async function* commitBatches(ctx: RepoContext, tips: readonly [string, string][], skip?: (oid: string) => boolean): AsyncIterable<Candidate[]> {
  const seen = new Set<string>();
  let batch: Candidate[] = [];
  // a few chains read ahead while one is searched: each is a `git rev-list` of its own; with several
  // branches every chain is read first, to know which branch wrote each shared commit
  const chains = aheadOf(tips.map(([, tip]) => () => ctx.engine.chain(tip)), 4);
  let owner: Map<string, string> | null = null;
  if (tips.length > 1) {
    const all: ChainLink[][] = [];
    for (let k = 0; k < tips.length; k++) all.push(await chains(k));
    owner = writers(tips.map(([b]) => b), all);
  }
  for (const [k, [branch]] of tips.entries()) {
    const links = await chains(k);
    let child: Candidate | null = null;
    for (const l of links) {
      const c = candidateOf(l, branch);
      if (child) child.parent = c;
      child = c;
      if (owner && owner.get(l.oid) !== branch) continue; // searched on the branch that wrote it
      if (seen.has(l.oid)) break;
      seen.add(l.oid);
      if (skip?.(l.oid)) continue; // read before (an index kept up to date): its ancestors may not be
      if (!searchable(c, l.message)) continue;
      batch.push(c);
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/**
 * The branch that wrote each commit of several chains (`branches[k]`'s chain is `chains[k]`, tip
 * first): a commit shared by forks goes with its child where they all share it, else to the first
 * branch whose next commit carries on its session, else to the first branch holding it.
 */
function writers(branches: readonly string[], chains: readonly ChainLink[][]): Map<string, string> {
  const session = new Map<string, string | undefined>();
  // each commit's holders: the branch and its child there (null: the branch's tip)
  const held = new Map<string, { branch: string; child: string | null }[]>();
  chains.forEach((links, k) =>
    links.forEach((l, i) => {
      session.set(l.oid, trailer(l.message, 'Ctx-Session'));
      const list = held.get(l.oid) ?? held.set(l.oid, []).get(l.oid)!;
      if (!list.some((h) => h.branch === branches[k])) list.push({ branch: branches[k], child: i === 0 ? null : links[i - 1].oid });
    }),
  );
  const owner = new Map<string, string>();
  // tip first: a commit's children are decided before it
  for (const links of chains)
    for (const l of links) {
      if (owner.has(l.oid)) continue;
      const holders = held.get(l.oid)!;
      const child = holders[0].child;
      if (child !== null && holders.every((h) => h.child === child) && owner.has(child)) owner.set(l.oid, owner.get(child)!);
      else owner.set(l.oid, (holders.find((h) => h.child !== null && session.get(h.child) === session.get(l.oid)) ?? holders[0]).branch);
    }
  return owner;
}

/** `jobs` run in order, at most `n` ahead of the one asked for; `at(k)` is job k's result. */
function aheadOf<T>(jobs: readonly (() => Promise<T>)[], n: number): (k: number) => Promise<T> {
  const started: Promise<T>[] = [];
  const start = (k: number) => {
    while (started.length < Math.min(jobs.length, k + n + 1)) {
      const p = jobs[started.length]();
      p.catch(() => {}); // awaited in turn; until then a failure waits there
      started.push(p);
    }
  };
  return (k) => (start(k), started[k]);
}

async function scanBatch(ctx: RepoContext, batch: Candidate[], mayHold: (b: Uint8Array) => boolean, withMeta: boolean): Promise<ScannedCommit[]> {
  const specs = batch.map((c) => artifactSpec(c));
  const held = new Map<number, Uint8Array>();
  const chunked: number[] = [];
  const take = (i: number, obj: GitObject | null) => {
    if (obj?.type === 'tree') chunked.push(i);
    else if (obj?.type === 'blob' && mayHold(obj.data)) held.set(i, Uint8Array.from(obj.data));
  };
  if (ctx.engine.readEach) await ctx.engine.readEach(specs, take);
  else (await ctx.engine.readObjects(specs)).forEach((obj, i) => take(i, obj));
  if (chunked.length) {
    const whole = await readArtifactsAt(ctx.engine, chunked.map((i) => ({ oid: batch[i].oid, spec: specs[i] })));
    chunked.forEach((i, k) => mayHold(whole[k]) && held.set(i, whole[k]));
  }
  const order = [...held.keys()].sort((a, b) => a - b);
  // a snapshot's meta.json says whether it copies a chain (`ctx snapshot`): those are not searched
  const metaOf = order.filter((i) => withMeta || batch[i].type === 'snapshot');
  const blobs = await ctx.engine.readObjects(metaOf.map((i) => `${batch[i].tree}:meta.json`));
  const metas = new Map(metaOf.map((i, k) => {
    if (!blobs[k]) throw new IntegrityError(`${shortId(batch[i].oid)}: meta.json is missing`);
    return [i, parseMeta(batch[i].oid, blobs[k]!.data)];
  }));
  // each held artifact parsed once: a whole-context artifact's parent is mostly held in the same batch
  const at = new Map(batch.map((c, i) => [c.oid, i]));
  const parsed = new Map<number, NeutralMessage[]>();
  const heldMessages = (i: number) => parsed.get(i) ?? parsed.set(i, messagesOf(batch[i].format!, held.get(i)!)).get(i)!;
  const known = (p: Candidate) => {
    const j = at.get(p.oid);
    return j !== undefined && held.has(j) ? heldMessages(j) : null;
  };
  const out: ScannedCommit[] = [];
  for (const i of order) {
    const c = batch[i];
    const meta = metas.get(i) ?? null;
    if (meta?.snapshot_of) continue;
    const whole = c.type === 'snapshot' || c.format!.concatRule === 'snapshot';
    out.push({ oid: c.oid, branch: c.branch, meta, messages: heldMessages(i), from: whole ? await knownBefore(ctx, c, known) : 0, bytes: held.get(i)! });
  }
  return out;
}

const artifactSpec = (c: Candidate) => `${c.tree}:${artifactName(c.type, c.format!.ext)}`;

export function messagesOf(format: StorageFormat, bytes: Uint8Array): NeutralMessage[] {
  return format.toNeutral!(format.parse(bytes, { lastOfFile: true }));
}

/**
 * An artifact that is the whole context (a snapshot, or such a format): the messages its parent's already held are not new here.
 * `read`: the parent's messages when the scan has them already, else null (then its artifact is read).
 */
async function knownBefore(ctx: RepoContext, c: Candidate, read: (p: Candidate) => NeutralMessage[] | null): Promise<number> {
  const p = c.parent;
  if (!p?.format || p.format !== c.format || (p.type !== 'snapshot' && p.format.concatRule !== 'snapshot')) return 0;
  const messages = read(p);
  if (messages) return messages.length;
  const [bytes] = await readArtifactsAt(ctx.engine, [{ oid: p.oid, spec: artifactSpec(p) }]);
  return messagesOf(p.format, bytes).length;
}

/** A commit's own artifact as neutral messages, as grep and files number them (`entry`); null for a format ctx cannot read into messages. */
export async function commitMessages(ctx: RepoContext, spec: string): Promise<NeutralMessage[] | null> {
  const oid = await ctx.resolve(spec);
  const [stored] = await readStoredCommits(ctx.engine, [oid]);
  const format = knownFormat(stored.meta.format);
  if (!format?.toNeutral) return null;
  return messagesOf(format, (await readArtifacts(ctx.engine, [stored]))[0]);
}

/** commitMessages for many commits (40 hex ids) at once: two reads of the store in all. */
export async function commitsMessages(ctx: RepoContext, oids: readonly string[]): Promise<(NeutralMessage[] | null)[]> {
  if (oids.length === 0) return [];
  const stored = await readStoredCommits(ctx.engine, oids);
  const readable = stored.filter((s) => knownFormat(s.meta.format)?.toNeutral && s.artifact);
  const bytes = await readArtifacts(ctx.engine, readable);
  const byOid = new Map(readable.map((s, i) => [s.oid, messagesOf(knownFormat(s.meta.format)!, bytes[i])]));
  return oids.map((o) => byOid.get(o) ?? null);
}

