// The whole context at a commit: walk first parents to the stop, concatenate by the format rule.
import { BadInputError, IntegrityError, UsageError } from '../errors/index.js';
import { artifactHash } from '../core/blake3.js';
import { fullId, shortId } from '../core/ids.js';
import { contributing, formatRuns, stopIndex, stopLabel, translationTier, type Stop, type Tier, type WalkCommit } from '../core/materialize.js';
import { COMMIT_TYPES, artifactName, parseTrailers, type CommitType } from '../core/meta.js';
import { VIEWS, conversationView, maskToolOutputs, type View } from '../core/views.js';
import { checkOutputFormat, formatNames, knownFormat, storageFormat } from '../formats/registry.js';
import { renderMarkdown } from '../formats/markdown.js';
import type { NeutralMessage } from '../core/neutral.js';
import { renderRaw } from '../formats/raw.js';
import { MaterializeCache } from '../store/cache.js';
import { readArtifactsAt, readEntries, readLayouts } from '../store/context-commits.js';
import type { ChainLink } from '../store/engine.js';
import { readNotes } from '../store/notes.js';
import { refs } from '../store/refs.js';
import { foldAnnotations } from './read.js';
import type { RepoContext } from './repo-context.js';

export interface MaterializeOptions {
  /** output format; default: the stored format of the commit */
  format?: string;
  /** `compaction` (default), `root`, or an ancestor id */
  stop?: string;
  /** recompute every artifact's BLAKE3 (bypasses the cache) */
  verify?: boolean;
  /** `reasoning` (default: every entry, bytes unchanged) or `conversation` (user ↔ assistant text) */
  view?: View;
  /** replace tool results older than the last N turns by a placeholder (pinned commits' messages kept) */
  maskToolOutputs?: number;
}

export interface Materialized {
  bytes: Uint8Array;
  format: string;
  /** native (concatenated), field-level (an older format's fields mapped), structural (through the neutral model), rendering (markdown), raw */
  tier: Tier;
  /** the stored formats of the artifacts used, each once, in chain order */
  from: string[];
  /** set when the raw tier stood in for the requested format: the stored format this build does not know */
  unknown?: string;
  /** the commits whose artifacts were used, oldest first */
  commits: string[];
  stop: string;
  view: View;
  /** tool results replaced by a placeholder */
  masked: number;
  cached: boolean;
}

type Walked = WalkCommit & ChainLink;

export async function materialize(ctx: RepoContext, spec: string, opts: MaterializeOptions = {}): Promise<Materialized> {
  const tip = await ctx.resolve(spec);
  const stop = await parseStop(ctx, opts.stop ?? 'compaction');
  if (opts.format !== undefined) checkOutputFormat(opts.format);
  const view = opts.view ?? 'reasoning';
  if (!VIEWS.includes(view)) throw new UsageError(`unknown view '${view}': ${VIEWS.join(' or ')}`);
  const mask = opts.maskToolOutputs;
  if (mask !== undefined && !(Number.isSafeInteger(mask) && mask >= 0)) throw new UsageError('--mask-tool-outputs takes a number of turns (0 or more)');
  // a view or a mask goes through the neutral model, so only a format written from it can carry one
  const shaped = view !== 'reasoning' || mask !== undefined;
  if (shaped && opts.format !== undefined) checkViewCarrier(opts.format, view, mask);
  const cache = MaterializeCache.forRepo(ctx.gitdir);
  // pins are annotations, which change without the commit changing: a masked result is keyed by the notes too
  const shape = shaped ? ` view=${view} mask=${mask ?? '-'}${mask !== undefined ? ` notes=${ctx.refs.read(refs.notes) ?? '-'}` : ''}` : '';
  const key = `${tip} ${opts.format ?? ''} ${stopLabel(stop)}${shape}`;
  if (!opts.verify) {
    const hit = await cache.get(`${key} record`);
    const bytes = hit && (await cache.get(key));
    const maskedHit = mask === undefined ? Buffer.from('0') : await cache.get(`${key} masked`);
    if (hit && bytes && maskedHit) {
      const [format, tier, from, unknown, ...commits] = Buffer.from(hit).toString('utf8').split('\n');
      const masked = Number(Buffer.from(maskedHit).toString('utf8'));
      return { bytes, format, tier: tier as Tier, from: from.split(','), ...(unknown ? { unknown } : {}), commits, stop: stopLabel(stop), view, masked, cached: true };
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
  // without --format, a view of a format that cannot carry one is written as openai-chat-v1
  const stored = walked[0].format;
  const format = opts.format ?? (shaped && !viewCarriers().includes(stored) && knownFormat(stored) ? 'openai-chat-v1' : stored);
  if (shaped) checkViewCarrier(format, view, mask);
  const from = [...new Set(parts.map((p) => p.format))];
  const choice = translationTier(
    format,
    parts.map((p) => p.format),
    (name) => {
      const f = knownFormat(name);
      return f && { toNeutral: f.toNeutral !== undefined, fromNeutral: f.fromNeutral !== undefined, upgradesTo: f.fieldMap?.to };
    },
  );
  if (choice.tier === null) {
    const foreign = parts.find((p) => p.format === choice.refused)!;
    throw new BadInputError(`${shortId(foreign.oid)} holds ${foreign.format}, not ${format}: materialize it as ${foreign.format} or raw`);
  }
  if (shaped && choice.unknown) throw new BadInputError(`this build does not know the stored format '${choice.unknown}': no view or mask can be applied; materialize it as raw`);
  const { unknown } = choice;
  // a view is written from neutral messages even when every artifact is already in the requested format
  const tier: Tier = shaped && (choice.tier === 'native' || choice.tier === 'field-level') ? 'structural' : choice.tier;
  let bytes: Uint8Array;
  let masked = 0;
  if (tier === 'raw') bytes = renderRaw(parts.map((p, i) => ({ id: fullId(p.oid), type: p.type, format: p.format, bytes: artifacts[i] })));
  else if (tier === 'native') bytes = storageFormat(format).concat(artifacts);
  else if (tier === 'field-level') bytes = storageFormat(format).concat(await upgradeRuns(ctx, format, parts, artifacts));
  else {
    let messages = toNeutral(parts, artifacts);
    if (view === 'conversation') messages = conversationView(messages);
    if (mask !== undefined) {
      const pinned = await pinnedSources(ctx, parts, artifacts, messages.length, view);
      ({ messages, masked } = maskToolOutputs(messages, { keepTurns: mask, pinned }));
    }
    bytes = tier === 'rendering' ? renderMarkdown(messages) : storageFormat(format).fromNeutral!(messages);
  }
  const commits = parts.map((p) => fullId(p.oid));
  const written = tier === 'raw' ? 'raw' : format;
  await cache.put(key, bytes);
  if (mask !== undefined) await cache.put(`${key} masked`, Buffer.from(String(masked)));
  await cache.put(`${key} record`, Buffer.from([written, tier, from.join(','), unknown ?? '', ...commits].join('\n')));
  return { bytes, format: written, tier, from, ...(unknown ? { unknown } : {}), commits, stop: stopLabel(stop), view, masked, cached: false };
}

/** The formats a view can be written in: those written from the neutral model, and markdown. */
export function viewCarriers(): string[] {
  return formatNames().filter((n) => n === 'markdown' || knownFormat(n)?.fromNeutral !== undefined);
}

function checkViewCarrier(format: string, view: View, mask: number | undefined) {
  if (viewCarriers().includes(format)) return;
  const what = view !== 'reasoning' ? `--view ${view}` : '--mask-tool-outputs';
  const mark = mask !== undefined && view !== 'reasoning' ? ' (and --mask-tool-outputs)' : '';
  throw new UsageError(`${what}${mark} cannot be written as ${format}: give --format ${viewCarriers().join(', ')}`);
}

/**
 * What `maskToolOutputs` must leave whole: the messages of commits annotated `pinned: true`. By
 * index when each artifact read alone gives the messages its run gives (no message spans two
 * artifacts), else by the source ids of the pinned artifacts' messages.
 */
async function pinnedSources(ctx: RepoContext, parts: readonly Walked[], artifacts: readonly Uint8Array[], total: number, view: View): Promise<Set<string | number>> {
  const notes = await readNotes(ctx.engine, ctx.refs, parts.map((p) => p.oid));
  const pinned = new Set<string | number>();
  const isPinned = parts.map((p) => foldAnnotations(notes.get(p.oid)).pinned === true);
  if (!isPinned.includes(true)) return pinned;
  const alone = parts.map((p, i) => {
    const f = storageFormat(p.format);
    const ms = f.toNeutral!(f.parse(artifacts[i], { lastOfFile: true }));
    return view === 'conversation' ? conversationView(ms) : ms;
  });
  const byIndex = alone.reduce((n, ms) => n + ms.length, 0) === total && parts.every((p) => p.format !== 'gemini-cli-chat-v1');
  let at = 0;
  alone.forEach((ms, i) => {
    if (isPinned[i])
      ms.forEach((m, j) => {
        if (byIndex) pinned.add(at + j);
        else for (const id of Object.values(m.ids ?? {})) pinned.add(id);
      });
    at += ms.length;
  });
  return pinned;
}

/** One run's artifacts concatenated by its format's rule (a Gemini run is its last snapshot) and parsed. */
function parseRun(format: string, artifacts: readonly Uint8Array[]): unknown[] {
  const f = storageFormat(format);
  return f.parse(f.concat(artifacts), { lastOfFile: true });
}

/** Mixed chains: each run read into neutral messages, the runs joined in chain order. */
function toNeutral(parts: readonly Walked[], artifacts: readonly Uint8Array[]): NeutralMessage[] {
  return formatRuns(parts.map((p) => p.format)).flatMap(([i, j]) => storageFormat(parts[i].format).toNeutral!(parseRun(parts[i].format, artifacts.slice(i, j))));
}

/** Runs of artifacts in an older format, each mapped field by field into `format`; the rest as they are. */
async function upgradeRuns(ctx: RepoContext, format: string, parts: readonly Walked[], artifacts: readonly Uint8Array[]): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const [i, j] of formatRuns(parts.map((p) => p.format))) {
    if (parts[i].format === format) {
      out.push(...artifacts.slice(i, j));
      continue;
    }
    const [first] = await readEntries(ctx.engine, [parts[i]]);
    out.push(storageFormat(parts[i].format).fieldMap!.upgrade(parseRun(parts[i].format, artifacts.slice(i, j)), { timestamp: first.meta.created_at }));
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
