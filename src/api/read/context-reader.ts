// The one reader of a context: walk first parents to the stop, read the artifacts that contribute,
// and (when asked) the annotations and pins on them. Materialize, compact, budget and live capture
// read chains through here.
import { BadInputError, IntegrityError, UsageError } from '../../errors/index.js';
import { artifactHasher } from '../../core/blake3.js';
import { shortId } from '../../core/ids.js';
import { contributing, formatRuns, stopIndex, stopLabel, type Stop, type WalkCommit } from '../../core/materialize.js';
import { COMMIT_TYPES, artifactName, parseTrailers, type CommitType, type Meta } from '../../core/meta.js';
import type { NeutralMessage } from '../../core/neutral.js';
import { knownFormat, storageFormat } from '../../formats/registry.js';
import { artifactMismatch, checkedArtifact, chunkIds, eachChunk, parseMeta, readArtifacts, readArtifactsAt, readEntries, readLayouts, readMetas, type ArtifactClaim } from '../../store/context-commits.js';
import { parseCommit } from '../../store/objects.js';
import type { ChainLink } from '../../store/engine.js';
import { readNotes } from '../../store/notes.js';
import { looseRootFile } from '../../store/subtree.js';
import { StoreDamage, UnreadableObject } from '../../store/damage.js';
import { foldAnnotations, type Annotations } from './read.js';
import type { RepoContext } from '../repo/repo-context.js';

/** A commit of the context, oldest first, with its artifact bytes. */
export type ContextPart = Walked & { artifact: Uint8Array };

export type Walked = WalkCommit & Pick<ChainLink, 'oid' | 'tree'> & {
  /** its meta.json was read and checked by the walk: what reads its artifact reads meta.json no more */
  checked?: true;
  /** where its artifact is, when the walk read its tree: a blob, or a tree of chunks */
  located?: { oid: string; chunked: boolean };
  /** its meta.json's artifact and artifact_size, when the walk read them: what its artifact is checked against */
  claim?: ArtifactClaim;
};

export interface ContextRead {
  tip: string;
  /** the stored format of the tip (a synthetic compaction at the tip may not contribute) */
  tipFormat: string;
  stop: Stop;
  /** the commits whose artifacts make up the context, oldest first */
  parts: ContextPart[];
  /** the synthetic compactions (ctx clear, ctx compact) the walk passed over, oldest first: `before`, the index in parts of the part after it */
  passed: { commit: Walked; before: number }[];
}

/** `compaction`, `root` or an ancestor spec → the stop of a walk. */
export async function parseStop(ctx: RepoContext, stop: string): Promise<Stop> {
  if (stop === 'compaction' || stop === 'root') return { kind: stop };
  if (stop === '') throw new UsageError('--stop takes compaction, root or a commit id');
  return { kind: 'ancestor', oid: await ctx.resolve(stop) };
}

/** The context at `tip`: `spec` names it in errors; `verify` recomputes every artifact's BLAKE3. */
export async function readContext(ctx: RepoContext, tip: string, stop: Stop, opts: { spec?: string; verify?: boolean } = {}): Promise<ContextRead> {
  const walk = await walkContext(ctx, tip, stop, opts.spec);
  return { ...walk, parts: await readParts(ctx, walk.parts, opts) };
}

/** The walk alone: which commits make up the context at `tip`, oldest first, without reading a blob. */
export async function walkContext(ctx: RepoContext, tip: string, stop: Stop, spec = tip): Promise<Omit<ContextRead, 'parts'> & { parts: Walked[] }> {
  const walked = await walkToStop(ctx, tip, stop, spec);
  const parts = contributing(walked);
  return { tip, tipFormat: walked[0].format, stop, parts, passed: passedOver(walked, parts) };
}

/** The compactions of a walk (newest first) that do not contribute, each with where it sits among the parts (oldest first). */
function passedOver(walked: readonly Walked[], parts: readonly Walked[]): ContextRead['passed'] {
  const kept = new Set(parts);
  const out: ContextRead['passed'] = [];
  let before = 0;
  for (let i = walked.length - 1; i >= 0; i--) {
    if (kept.has(walked[i])) before++;
    else if (walked[i].type === 'compaction') out.push({ commit: walked[i], before });
  }
  return out;
}

/**
 * The artifacts of walked commits, each checked against its meta.json (size and BLAKE3) on the way.
 * `verify` asks no more than that now: it is what keeps its callers off the caches.
 */
export async function readParts(ctx: RepoContext, commits: readonly Walked[], _opts: { verify?: boolean } = {}): Promise<ContextPart[]> {
  const artifacts = await readPartArtifacts(ctx, commits);
  return commits.map((c, i) => ({ ...c, artifact: artifacts[i] }));
}

/** Consecutive parts in one format, in chain order. */
export function runsOf<T extends { format: string }>(parts: readonly T[]): T[][] {
  return formatRuns(parts.map((p) => p.format)).map(([i, j]) => parts.slice(i, j));
}

/** One run's artifacts joined by its format's rule and parsed. */
export function parseRun(run: readonly ContextPart[]): unknown[] {
  const f = storageFormat(run[0].format);
  return f.parse(f.concat(run.map((p) => p.artifact)), { lastOfFile: true });
}

/** Each run of the context with its neutral messages; a run no format here can read is refused. */
export function neutralRuns(parts: readonly ContextPart[]): { run: ContextPart[]; messages: NeutralMessage[] }[] {
  return runsOf(parts).map((run) => {
    const f = knownFormat(run[0].format);
    if (!f?.toNeutral) throw new BadInputError(`${shortId(run[0].oid)} holds ${run[0].format}, which ctx cannot read into messages`);
    return { run, messages: f.toNeutral(parseRun(run)) };
  });
}

/** The context as neutral messages, run by run. */
export function neutralMessages(parts: readonly ContextPart[]): NeutralMessage[] {
  return neutralRuns(parts).flatMap((r) => r.messages);
}

/** The latest annotations of each part, in order. */
export async function annotationsOf(ctx: RepoContext, parts: readonly { oid: string }[]): Promise<Annotations[]> {
  const notes = await readNotes(ctx.engine, ctx.refs, parts.map((p) => p.oid));
  return parts.map((p) => foldAnnotations(notes.get(p.oid)));
}

/**
 * Which of `messages` (the context's neutral messages, after `shape`: a view) come from commits
 * annotated `pinned: true`.
 */
export async function pinnedMessages(ctx: RepoContext, parts: readonly ContextPart[], messages: readonly NeutralMessage[], shape: (ms: NeutralMessage[]) => NeutralMessage[] = (ms) => ms): Promise<Set<number>> {
  const pinned = new Set<number>();
  const isPinned = (await annotationsOf(ctx, parts)).map((a) => a.pinned === true);
  if (!isPinned.includes(true)) return pinned;
  messageSources(parts, messages, shape).forEach((from, i) => from.some((p) => isPinned[p]) && pinned.add(i));
  return pinned;
}

/**
 * The parts each of `messages` (after `shape`) comes from, as indexes into `parts`, oldest first. By
 * position when each artifact read alone gives the messages its run gives (a byte-append or merge
 * format, no message across two artifacts), else every part holding one of the message's source ids.
 */
export function messageSources(parts: readonly ContextPart[], messages: readonly NeutralMessage[], shape: (ms: NeutralMessage[]) => NeutralMessage[] = (ms) => ms): number[][] {
  const alone = parts.map((p) => shape(partMessages(p)));
  const byIndex = alone.reduce((n, ms) => n + ms.length, 0) === messages.length && parts.every((p) => storageFormat(p.format).concatRule !== 'snapshot');
  if (byIndex) return alone.flatMap((ms, i) => ms.map(() => [i]));
  const ids = alone.map((ms) => new Set(ms.flatMap((m) => Object.values(m.ids ?? {}))));
  return messages.map((m) => parts.flatMap((_, i) => (Object.values(m.ids ?? {}).some((id) => ids[i].has(id)) ? [i] : [])));
}

/** One part's artifact read alone into neutral messages. */
export function partMessages(p: ContextPart): NeutralMessage[] {
  const f = storageFormat(p.format);
  return f.toNeutral!(f.parse(p.artifact, { lastOfFile: true }));
}

/** One commit's meta.json. */
export async function readTipMeta(ctx: RepoContext, tip: string): Promise<Meta> {
  // a tip a hook or checkpoint just wrote is loose: read here, no git process started
  const blob = looseRootFile(ctx.gitdir, tip, 'meta.json') ?? (await ctx.engine.readObjects([`${tip}:meta.json`]))[0];
  if (!blob) throw new IntegrityError(`ctx-${tip.slice(0, 12)}: meta.json is missing`);
  return parseMeta(tip, blob.data);
}

/** The first-parent chain from `tip` with metadata and artifacts, oldest first (live capture's forks and spawn points). */
export async function chainWithArtifacts(ctx: RepoContext, tip: string): Promise<{ oid: string; meta: Meta; artifact: Uint8Array }[]> {
  const links = await ctx.engine.chain(tip);
  const entries = await readEntries(ctx.engine, links);
  const artifacts = await readArtifacts(ctx.engine, entries);
  return entries.map((e, i) => ({ oid: e.oid, meta: e.meta, artifact: artifacts[i] })).reverse();
}

/**
 * Known formats name their artifact (`<tree>:delta.jsonl`): one pipelined pass reads every artifact
 * and every meta.json, no tree reads first. A meta.json that is missing, not JSON or of a version
 * this build does not know makes the context unreadable (an integrity failure), as docs/format.md says.
 */
async function readPartArtifacts(ctx: RepoContext, parts: readonly Walked[]): Promise<Uint8Array[]> {
  const named = await artifactSpecs(ctx, parts);
  // both in flight at once; a meta.json problem is reported before a missing artifact, as one after the other did
  const unchecked = parts.filter((p) => !p.claim);
  const [metas, artifacts] = await Promise.allSettled([ctx.engine.readObjects(unchecked.map((p) => `${p.tree}:meta.json`)), readArtifactsAt(ctx.engine, named)]);
  if (metas.status === 'rejected') throw metas.reason;
  const claims = new Map<string, ArtifactClaim>();
  metas.value.forEach((m, i) => {
    if (!m || m.type !== 'blob') throw new IntegrityError(`${shortId(unchecked[i].oid)}: meta.json is missing`);
    claims.set(unchecked[i].oid, parseMeta(unchecked[i].oid, m.data));
  });
  if (artifacts.status === 'rejected') throw artifacts.reason;
  for (let i = 0; i < parts.length; i++) await checkedArtifact(parts[i].oid, artifacts.value[i], parts[i].claim ?? claims.get(parts[i].oid)!);
  return artifacts.value;
}

/** Where eachPart hands the artifacts: each one's bytes in one or more pieces, then its commit. */
export interface PartSink {
  /** valid during the call only: copy what you keep */
  piece(bytes: Uint8Array): void;
  done(commit: Walked): void;
}

/**
 * Every part's artifact handed to `sink` in chain order as it is read, none kept. When the walk
 * found every artifact (it read the trees), one pass reads their blobs by id, chunks in place. Else
 * one pass of meta.json and artifact alternately (each meta.json checked before its artifact is
 * handed over), a chunked artifact chunk by chunk; readParts batch by batch for an engine that does
 * not stream.
 */
export async function eachPart(ctx: RepoContext, commits: readonly Walked[], to: PartSink): Promise<void> {
  const { engine } = ctx;
  // claims of the commits whose meta.json is read below, not by the walk
  const claims = new Map<string, ArtifactClaim>();
  const sink = await checking(to, (c) => c.claim ?? claims.get(c.oid));
  if (!engine.readEach) {
    for (let at = 0; at < commits.length; at += 500)
      for (const p of await readParts(ctx, commits.slice(at, at + 500))) {
        to.piece(p.artifact);
        to.done(p);
      }
    return;
  }
  if (commits.every((c) => c.claim && c.located)) return eachLocated(ctx, commits, sink);
  const specs = await artifactSpecs(ctx, commits);
  // a chunked artifact (a tree) is read chunk by chunk apart; the parts after it wait for it, in
  // order, copied (the engine's bytes are valid during its call only)
  let behind: Promise<void> | null = null;
  const later = (fn: () => void | Promise<void>) => {
    behind = (behind ?? Promise.resolve()).then(fn);
    behind.catch(() => {}); // awaited below; until then a failure waits there
  };
  // meta.json (unless the walk checked it) then the artifact, commit by commit: `part[j]` is the
  // commit of spec j, negative for its meta.json
  const interleaved: string[] = [];
  const part: number[] = [];
  specs.forEach((s, i) => {
    if (!commits[i].claim) interleaved.push(`${commits[i].tree}:meta.json`), part.push(-1 - i);
    interleaved.push(s.spec), part.push(i);
  });
  try {
    await engine.readEach(interleaved, (j, obj) => {
      const c = commits[part[j] < 0 ? -1 - part[j] : part[j]];
      if (part[j] < 0) {
        if (!obj || obj.type !== 'blob') throw new IntegrityError(`${shortId(c.oid)}: meta.json is missing`);
        claims.set(c.oid, parseMeta(c.oid, obj.data));
      } else if (obj?.type === 'blob' && !behind) {
        sink.piece(obj.data);
        sink.done(c);
      } else if (obj?.type === 'blob') {
        const kept = Uint8Array.from(obj.data);
        later(() => (sink.piece(kept), sink.done(c)));
      } else if (obj?.type === 'tree') {
        const tree = Uint8Array.from(obj.data);
        later(async () => (await eachChunk(engine, c.oid, tree, sink.piece), sink.done(c)));
      } else throw new IntegrityError(`${shortId(c.oid)}: artifact is missing`);
    });
  } catch (e) {
    throw damageOf(e, (spec) => {
      const j = interleaved.indexOf(spec);
      return j >= 0 && part[j] >= 0 ? commits[part[j]].oid : null;
    });
  }
  await behind;
}

/**
 * `sink`, with each artifact checked against its commit's claim (size, then BLAKE3) before the
 * commit is done: its pieces go on as they come, and a mismatch fails the read at its commit.
 */
async function checking(sink: PartSink, claimOf: (c: Walked) => ArtifactClaim | undefined): Promise<PartSink> {
  const hasher = await artifactHasher();
  let size = 0;
  return {
    piece(bytes) {
      hasher.update(bytes);
      size += bytes.length;
      sink.piece(bytes);
    },
    done(c) {
      const digest = hasher.digest();
      const length = size;
      size = 0;
      const claim = claimOf(c);
      if (!claim) throw new IntegrityError(`${shortId(c.oid)}: meta.json is missing`);
      const wrong = artifactMismatch(c.oid, length, digest, claim);
      if (wrong) throw wrong;
      sink.done(c);
    },
  };
}

/**
 * The blobs that make up located commits' artifacts, in order (a chunked one's chunks read from its
 * tree), and for each commit the index of its last blob.
 */
async function blobsOf(ctx: RepoContext, commits: readonly Walked[]): Promise<{ oids: string[]; owner: number[]; ends: number[] }> {
  const chunked = commits.filter((c) => c.located!.chunked);
  const chunks = new Map<string, string[]>();
  if (chunked.length) {
    const trees = await ctx.engine.readObjects(chunked.map((c) => c.located!.oid));
    chunked.forEach((c, i) => {
      const t = trees[i];
      if (t?.type !== 'tree') throw new IntegrityError(`${shortId(c.oid)}: artifact is missing`);
      chunks.set(c.oid, chunkIds(t.data));
    });
  }
  // blob j is of commit owner[j]; commit i's last blob is ends[i] (the one before's, when it has none)
  const oids: string[] = [];
  const owner: number[] = [];
  const ends: number[] = [];
  commits.forEach((c, i) => {
    for (const oid of chunks.get(c.oid) ?? [c.located!.oid]) oids.push(oid), owner.push(i);
    ends.push(oids.length - 1);
  });
  return { oids, owner, ends };
}

/** eachPart of located commits: every blob by id in one pass, each commit done once its last blob is in. */
async function eachLocated(ctx: RepoContext, commits: readonly Walked[], sink: PartSink): Promise<void> {
  const { oids, owner, ends } = await blobsOf(ctx, commits);
  let next = 0;
  const doneTo = (j: number) => {
    while (next < commits.length && ends[next] <= j) sink.done(commits[next++]);
  };
  doneTo(-1);
  try {
    await ctx.engine.readEach!(oids, (j, obj) => {
      const c = commits[owner[j]];
      if (obj?.type !== 'blob') throw new IntegrityError(`${shortId(c.oid)}: ${c.located!.chunked ? 'an artifact chunk' : 'artifact'} is missing`);
      sink.piece(obj.data);
      doneTo(j);
    });
  } catch (e) {
    throw damageOf(e, (spec) => {
      const j = oids.indexOf(spec);
      return j >= 0 ? commits[owner[j]].oid : null;
    });
  }
  doneTo(oids.length);
}

/** A damaged artifact is named as readArtifactsAt names it: by the commit whose spec it was. */
function damageOf(e: unknown, commitOf: (spec: string) => string | null): unknown {
  const commit = e instanceof UnreadableObject ? commitOf(e.spec) : null;
  return commit ? new StoreDamage(commit, 'artifact is damaged', { cause: e }) : e;
}

/** Where each part's artifact is: where the walk found it, `<tree>:<name>` for a known format, else found in its tree. */
async function artifactSpecs(ctx: RepoContext, parts: readonly Walked[]): Promise<{ oid: string; spec: string }[]> {
  const nameOf = artifactNames();
  const named = parts.map((p) => {
    if (p.located) return { oid: p.oid, spec: p.located.oid };
    const name = nameOf(p.type, p.format);
    return name === null ? null : { oid: p.oid, spec: `${p.tree}:${name}` };
  });
  const unnamed = parts.filter((_, i) => named[i] === null);
  if (unnamed.length) {
    const layouts = new Map((await readLayouts(ctx.engine, unnamed)).map((l) => [l.oid, l]));
    parts.forEach((p, i) => {
      const a = layouts.get(p.oid)?.artifact;
      if (named[i]) return;
      if (!a) throw new IntegrityError(`${shortId(p.oid)}: artifact is missing`);
      named[i] = { oid: p.oid, spec: a.oid };
    });
  }
  return named as { oid: string; spec: string }[];
}

/**
 * A commit's artifact name (`delta.jsonl`) by type and format, null for a format this build does not
 * know; one lookup per (type, format) in a row, as a chain is mostly one of them.
 */
function artifactNames(): (type: CommitType, format: string) => string | null {
  let last: { type: CommitType; format: string; name: string | null } | null = null;
  return (type, format) => {
    if (last?.type !== type || last.format !== format) {
      const f = knownFormat(format);
      last = { type, format, name: f ? artifactName(type, f.ext) : null };
    }
    return last.name;
  };
}

/**
 * Walks tip-first in growing batches until the stop is found. A chain listed without messages is
 * described from meta.json, which is then checked here (a cold read reads each one once); a commit
 * whose meta.json cannot be read fails the walk only when the context holds it.
 */
async function walkToStop(ctx: RepoContext, tip: string, stop: Stop, spec: string): Promise<Walked[]> {
  const links = ctx.engine.chainTrees ? await ctx.engine.chainTrees(tip) : await ctx.engine.chain(tip);
  const walked: (Walked | IntegrityError)[] = [];
  // each batch of meta.json reads is a git process: few and growing fast (reading past the stop costs little)
  for (let batch = 256; ; batch *= 16) {
    for (const w of await describe(ctx, links.slice(walked.length, walked.length + batch))) walked.push(w);
    const bad = walked.findIndex((w) => w instanceof IntegrityError);
    const known = (bad < 0 ? walked : walked.slice(0, bad)) as Walked[];
    const n = stopIndex(known, stop, bad < 0 && walked.length === links.length);
    if (n === -2) throw new UsageError(`--stop ${stopLabel(stop)} is not an ancestor of ${spec}`);
    if (n >= 0) return known.slice(0, n);
    if (bad >= 0) throw walked[bad];
  }
}

/** parseTrailers(message)[key] without splitting the message: its last `key: value` line. */
export function trailer(message: string, key: string): string | undefined {
  const head = `${key}: `;
  const at = message.startsWith(head) ? 0 : message.lastIndexOf(`\n${head}`) + 1;
  if (at === 0 && !message.startsWith(head)) return undefined;
  const end = message.indexOf('\n', at);
  const value = message.slice(at + head.length, end < 0 ? message.length : end);
  // a line parseTrailers would not take (a CR, a line separator): ask it
  return /[\r\u2028\u2029]/.test(value) || (at === 0 && message.includes(`\n${head}`)) ? parseTrailers(message)[key] : value;
}

/**
 * Type and format from the commits' trailers (which `verify` checks against meta.json), so the walk
 * reads no blobs; meta.json is read only for snapshots and commits whose trailers do not tell. Links
 * without messages (an engine's `chainTrees`) are described from meta.json.
 */
async function describe(ctx: RepoContext, links: readonly (Pick<ChainLink, 'oid' | 'tree'> & { message?: string })[]): Promise<(Walked | IntegrityError)[]> {
  if (links.length && links.every((l) => l.message === undefined)) return describeByMeta(ctx, links);
  const out: (Walked | null)[] = (links as ChainLink[]).map((l) => {
    const type = trailer(l.message, 'Ctx-Type') as CommitType;
    const format = trailer(l.message, 'Ctx-Format');
    if (!COMMIT_TYPES.includes(type) || type === 'snapshot' || !format) return null;
    return { oid: l.oid, tree: l.tree, message: l.message, type, format };
  });
  const unknown = links.filter((_, i) => out[i] === null);
  if (unknown.length) {
    const entries = new Map((await readEntries(ctx.engine, unknown)).map((e) => [e.oid, e]));
    links.forEach((l, i) => {
      const m = entries.get(l.oid)?.meta;
      if (m) out[i] = { ...l, type: m.type, format: m.format, snapshotOf: m.snapshot_of?.stop, claim: { artifact: m.artifact, artifact_size: m.artifact_size } };
    });
  }
  return out as Walked[];
}

/**
 * Type and format of commits listed without messages, from their meta.json (`<tree>:meta.json`,
 * checked). A compaction's message is read too: its trailers mark one ctx compact made up.
 */
async function describeByMeta(ctx: RepoContext, links: readonly Pick<ChainLink, 'oid' | 'tree'>[]): Promise<(Walked | IntegrityError)[]> {
  // the artifact as its format names it; else the one artifact entry there is
  const nameOf = artifactNames();
  const out = await readMetas(ctx.engine, links, (i, meta, artifacts): Walked => {
    const name = nameOf(meta.type, meta.format);
    const art = name === null ? artifacts[0] : artifacts.find((a) => a.name === name);
    const walked: Walked = { oid: links[i].oid, tree: links[i].tree, type: meta.type, format: meta.format, snapshotOf: meta.snapshot_of?.stop, checked: true, claim: { artifact: meta.artifact, artifact_size: meta.artifact_size } };
    if (art) walked.located = art;
    return walked;
  });
  const compactions = out.filter((w): w is Walked => !(w instanceof IntegrityError) && w.type === 'compaction');
  if (compactions.length) {
    const commits = await ctx.engine.readObjects(compactions.map((c) => c.oid));
    compactions.forEach((c, i) => {
      const obj = commits[i];
      if (obj?.type !== 'commit') throw new StoreDamage(c.oid, 'the commit is missing');
      c.message = parseCommit(obj.data).message;
    });
  }
  return out;
}
