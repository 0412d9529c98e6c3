// The whole context at a commit: walk first parents to the stop, concatenate by the format rule.
import { BadInputError, IntegrityError, UsageError } from '../errors/index.js';
import { artifactHash } from '../core/blake3.js';
import { fullId, shortId } from '../core/ids.js';
import { contributing, stopIndex, stopLabel, translationTier, type Stop, type Tier, type WalkCommit } from '../core/materialize.js';
import { COMMIT_TYPES, artifactName, parseTrailers, type CommitType } from '../core/meta.js';
import { checkOutputFormat, knownFormat, storageFormat } from '../formats/registry.js';
import { renderMarkdown } from '../formats/markdown.js';
import type { NeutralMessage } from '../formats/neutral.js';
import { renderRaw } from '../formats/raw.js';
import { MaterializeCache } from '../store/cache.js';
import { readArtifactsAt, readEntries, readLayouts } from '../store/context-commits.js';
import type { ChainLink } from '../store/engine.js';
import type { RepoContext } from './repo-context.js';

export interface MaterializeOptions {
  /** output format; default: the stored format of the commit */
  format?: string;
  /** `compaction` (default), `root`, or an ancestor id */
  stop?: string;
  /** recompute every artifact's BLAKE3 (bypasses the cache) */
  verify?: boolean;
}

export interface Materialized {
  bytes: Uint8Array;
  format: string;
  /** native (concatenated), structural (through the neutral model), rendering (markdown), raw */
  tier: Tier;
  /** the stored formats of the artifacts used, each once, in chain order */
  from: string[];
  /** set when the raw tier stood in for the requested format: the stored format this build does not know */
  unknown?: string;
  /** the commits whose artifacts were used, oldest first */
  commits: string[];
  stop: string;
  cached: boolean;
}

type Walked = WalkCommit & ChainLink;

export async function materialize(ctx: RepoContext, spec: string, opts: MaterializeOptions = {}): Promise<Materialized> {
  const tip = await ctx.resolve(spec);
  const stop = await parseStop(ctx, opts.stop ?? 'compaction');
  if (opts.format !== undefined) checkOutputFormat(opts.format);
  const cache = MaterializeCache.forRepo(ctx.gitdir);
  const key = `${tip} ${opts.format ?? ''} ${stopLabel(stop)}`;
  if (!opts.verify) {
    const hit = await cache.get(`${key} record`);
    const bytes = hit && (await cache.get(key));
    if (hit && bytes) {
      const [format, tier, from, unknown, ...commits] = Buffer.from(hit).toString('utf8').split('\n');
      return { bytes, format, tier: tier as Tier, from: from.split(','), ...(unknown ? { unknown } : {}), commits, stop: stopLabel(stop), cached: true };
    }
  }
  const walked = await walkToStop(ctx, tip, stop, spec);
  const parts = contributing(walked);
  const artifacts = await readPartArtifacts(ctx, parts);
  if (opts.verify) {
    const entries = await readEntries(ctx.engine, parts);
    for (let i = 0; i < parts.length; i++)
      if ((await artifactHash(artifacts[i])) !== entries[i].meta.artifact)
        throw new IntegrityError(`${shortId(parts[i].oid)}: artifact does not match its BLAKE3 in meta.json`);
  }
  const format = opts.format ?? walked[0].format;
  const from = [...new Set(parts.map((p) => p.format))];
  const choice = translationTier(
    format,
    parts.map((p) => p.format),
    (name) => {
      const f = knownFormat(name);
      return f && { toNeutral: f.toNeutral !== undefined, fromNeutral: f.fromNeutral !== undefined };
    },
  );
  if (choice.tier === null) {
    const foreign = parts.find((p) => p.format === choice.refused)!;
    throw new BadInputError(`${shortId(foreign.oid)} holds ${foreign.format}, not ${format}: materialize it as ${foreign.format} or raw`);
  }
  const { tier, unknown } = choice;
  let bytes: Uint8Array;
  if (tier === 'raw') bytes = renderRaw(parts.map((p, i) => ({ id: fullId(p.oid), type: p.type, format: p.format, bytes: artifacts[i] })));
  else if (tier === 'native') bytes = storageFormat(format).concat(artifacts);
  else {
    const messages = toNeutral(parts, artifacts);
    bytes = tier === 'rendering' ? renderMarkdown(messages) : storageFormat(format).fromNeutral!(messages);
  }
  const commits = parts.map((p) => fullId(p.oid));
  const written = tier === 'raw' ? 'raw' : format;
  await cache.put(key, bytes);
  await cache.put(`${key} record`, Buffer.from([written, tier, from.join(','), unknown ?? '', ...commits].join('\n')));
  return { bytes, format: written, tier, from, ...(unknown ? { unknown } : {}), commits, stop: stopLabel(stop), cached: false };
}

/**
 * Mixed chains: each run of artifacts in one format is concatenated by that format's rule (a Gemini
 * run is its last snapshot), read into neutral messages, and the runs joined in chain order.
 */
function toNeutral(parts: readonly Walked[], artifacts: readonly Uint8Array[]): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  for (let i = 0; i < parts.length; ) {
    let j = i + 1;
    while (j < parts.length && parts[j].format === parts[i].format) j++;
    const f = storageFormat(parts[i].format);
    out.push(...f.toNeutral!(f.parse(f.concat(artifacts.slice(i, j)), { lastOfFile: true })));
    i = j;
  }
  return out;
}

async function parseStop(ctx: RepoContext, stop: string): Promise<Stop> {
  if (stop === 'compaction' || stop === 'root') return { kind: stop };
  if (stop === '') throw new UsageError('--stop takes compaction, root or a commit id');
  return { kind: 'ancestor', oid: await ctx.resolve(stop) };
}

/** Known formats name their artifact (`<tree>:delta.jsonl`): one pass, no tree reads first. */
async function readPartArtifacts(ctx: RepoContext, parts: readonly Walked[]): Promise<Uint8Array[]> {
  const named = parts.map((p) => {
    const f = knownFormat(p.format);
    return f ? { oid: p.oid, spec: `${p.tree}:${artifactName(p.type, f.ext)}` } : null;
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
  return readArtifactsAt(ctx.engine, named as { oid: string; spec: string }[]);
}

/** Walks tip-first in growing batches until the stop is found. */
async function walkToStop(ctx: RepoContext, tip: string, stop: Stop, spec: string): Promise<Walked[]> {
  const links = await ctx.engine.chain(tip);
  const walked: Walked[] = [];
  for (let batch = 256; ; batch *= 4) {
    walked.push(...(await describe(ctx, links.slice(walked.length, walked.length + batch))));
    const n = stopIndex(walked, stop, walked.length === links.length);
    if (n === -2) throw new UsageError(`--stop ${stopLabel(stop)} is not an ancestor of ${spec}`);
    if (n >= 0) return walked.slice(0, n);
  }
}

/**
 * Type and format from the commits' trailers (which `verify` checks against meta.json), so the walk
 * reads no blobs; meta.json is read only for snapshots and commits whose trailers do not tell.
 */
async function describe(ctx: RepoContext, links: readonly ChainLink[]): Promise<Walked[]> {
  const out: (Walked | null)[] = links.map((l) => {
    const t = parseTrailers(l.message);
    const type = t['Ctx-Type'] as CommitType;
    if (!COMMIT_TYPES.includes(type) || type === 'snapshot' || !t['Ctx-Format']) return null;
    return { ...l, type, format: t['Ctx-Format'] };
  });
  const unknown = links.filter((_, i) => out[i] === null);
  if (unknown.length) {
    const entries = new Map((await readEntries(ctx.engine, unknown)).map((e) => [e.oid, e]));
    links.forEach((l, i) => {
      const m = entries.get(l.oid)?.meta;
      if (m) out[i] = { ...l, type: m.type, format: m.format, snapshotOf: m.snapshot_of?.stop };
    });
  }
  return out as Walked[];
}
