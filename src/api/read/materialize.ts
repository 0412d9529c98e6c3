// The whole context at a commit: read through the context reader, joined by the format rule,
// translated when another format is asked for, cached by (commit, format, stop, view).
import { BadInputError, NotFoundError, UsageError } from '../../errors/index.js';
import { fullId, shortId } from '../../core/ids.js';
import { stopLabel, translationTier, type Tier } from '../../core/materialize.js';
import { parseTrailers } from '../../core/meta.js';
import { configuredWindow, parseSince, type Window } from '../../core/window.js';
import { VIEWS, conversationView, maskToolOutputs, type View } from '../../core/views.js';
import { forView } from '../../core/for-view.js';
import { forRuntime } from '../../core/neutral.js';
import { checkOutputFormat, knownFormat, outputFormat, rawOutput, storageFormat, storageNames, viewCarriers, viewFormatFor } from '../../formats/registry.js';
import { MaterializeCache } from '../../store/cache.js';
import { readEntries } from '../../store/context-commits.js';
import { checkBranchName, refs } from '../../store/refs.js';
import { ChainCache, ChainHeads } from '../../store/chain-cache.js';
import { cursorOf } from './cursors.js';
import { eachPart, messageSources, neutralMessages, parseRun, parseStop, pinnedMessages, readParts, runsOf, walkContext, type ContextPart, type Walked } from './context-reader.js';
import type { RepoContext } from '../repo/repo-context.js';
import { windowParts } from './window.js';

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
  /** the view of one agent of several: its entries as assistant, the others' attributed, what came after its cursor as one "While you were away:" message */
  for?: string;
  /** only the commits of this thread (meta.json `thread_id`) */
  thread?: string;
  /**
   * the output is handed to `write` (in pieces, once everything is read and checked) and `bytes`
   * comes back empty: a chain read whole from the repo then goes from the chain cache's file to
   * `write` without ever being one buffer
   */
  write?: (chunk: Uint8Array) => void;
  /**
   * a rolling window: a duration back from now (`24h`), a time, or `all` (none); the later of its
   * start and the stop wins. Default: none (`ctx materialize` and `ctx save` default to the
   * branch's `ctx.window.<branch>`: `defaultSince`; exports and budgets read the whole context).
   */
  since?: string;
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
  /** the bytes are binary (a CBOR format): JSON output carries them base64 */
  binary: boolean;
  /** the rolling window applied (absent: none) */
  window?: Window;
}

export async function materialize(ctx: RepoContext, spec: string, opts: MaterializeOptions = {}): Promise<Materialized> {
  const { write } = opts;
  opts = { ...opts, window: opts.since === undefined ? null : parseSince(opts.since, ctx.now()) } as Built;
  if (!write) return withKept(ctx, await build(ctx, spec, opts), opts);
  // streamed as it is read, but held back while its first line may be a compaction that keeps
  // entries from before it: those are put in after the summary, as the runtime's own resume does
  const held: Uint8Array[] = [];
  let holding: boolean | null = null;
  const sink = (chunk: Uint8Array) => {
    if (holding === false) return write(chunk);
    held.push(chunk);
    if (holding !== null) return;
    const head = Buffer.concat(held);
    if (head.indexOf(0x0a) < 0 && chunk.length) return;
    holding = mayKeep(head);
    if (!holding) for (const c of held.splice(0)) write(c);
  };
  const built = await build(ctx, spec, { ...opts, write: sink });
  if (built.bytes === STREAMED && holding === false) return built;
  const m = await withKept(ctx, built.bytes === STREAMED ? { ...built, bytes: Buffer.concat(held) } : built, opts);
  write(m.bytes);
  return { ...m, bytes: STREAMED };
}

/** Whether a context starting with `head` may keep entries from before its compaction (any format that keeps some says). */
const mayKeep = (head: Uint8Array) => storageNames().some((n) => knownFormat(n)?.withKept?.(head) != null);

/**
 * A native context that starts at a compaction keeping entries from before it (Claude Code's
 * preservedMessages), with those entries where the runtime's own resume puts them: the default
 * materialization equals what the runtime resumes with.
 */
async function withKept(ctx: RepoContext, m: Materialized, opts: MaterializeOptions): Promise<Materialized> {
  if (m.tier !== 'native' || (opts.stop ?? 'compaction') !== 'compaction' || !m.commits.length) return m;
  const put = knownFormat(m.format)?.withKept?.(m.bytes);
  if (!put) return m;
  const first = m.commits[0];
  const before = async () => {
    try {
      return (await build(ctx, `${first}~1`, { format: m.format, stop: 'root' })).bytes;
    } catch (e) {
      if (e instanceof NotFoundError) return new Uint8Array(); // the compaction is the root
      throw e;
    }
  };
  return { ...m, bytes: await put(before) };
}

/** What build gets: the window resolved once. */
type Built = MaterializeOptions & { window?: Window | null };

/**
 * The window `ctx materialize` and `ctx save` apply: `since`, else (with the default stop, on a
 * branch named as it is) `ctx.window.<branch>`, as the instant it starts (null: none); a bad value
 * is a usage error naming where it came from, before anything is read.
 */
export function windowOf(ctx: RepoContext, spec: string, opts: Pick<MaterializeOptions, 'since' | 'stop'>): Window | null {
  if (opts.since !== undefined) return parseSince(opts.since, ctx.now());
  if ((opts.stop ?? 'compaction') !== 'compaction' || !isBranch(ctx, spec)) return null;
  const c = configuredWindow(ctx.config, spec);
  return c ? parseSince(c.value, ctx.now(), `config ${c.key}`) : null;
}

/** `since` for a materialization that defaults to the branch's configured window (the record keeps the value as given). */
export function defaultSince(ctx: RepoContext, spec: string, opts: Pick<MaterializeOptions, 'since' | 'stop'>): string | undefined {
  if (opts.since !== undefined) return opts.since;
  return windowOf(ctx, spec, opts) ? configuredWindow(ctx.config, spec)!.value : undefined;
}

function isBranch(ctx: RepoContext, name: string): boolean {
  try {
    return ctx.refs.read(refs.branch(checkBranchName(name))) !== null;
  } catch {
    return false;
  }
}

/** `bytes` of a result already handed to opts.write */
const STREAMED: Uint8Array = new Uint8Array(0);

async function build(ctx: RepoContext, spec: string, opts: Built): Promise<Materialized> {
  const { window } = opts;
  const tip = await ctx.resolve(spec);
  const stop = await parseStop(ctx, opts.stop ?? 'compaction');
  if (opts.format !== undefined) checkOutputFormat(opts.format);
  const view = opts.view ?? 'reasoning';
  if (!VIEWS.includes(view)) throw new UsageError(`unknown view '${view}': ${VIEWS.join(' or ')}`);
  const mask = opts.maskToolOutputs;
  if (mask !== undefined && !(Number.isSafeInteger(mask) && mask >= 0)) throw new UsageError('--mask-tool-outputs takes a number of turns (0 or more)');
  // a view or a mask goes through the neutral model, so only a format written from it can carry one
  const shaped = view !== 'reasoning' || mask !== undefined || opts.for !== undefined;
  if (shaped && opts.format !== undefined) checkViewCarrier(opts.format, view, mask, opts.for);
  const cursor = opts.for === undefined ? null : (await cursorOf(ctx, spec, opts.for)).id;
  const filtered = opts.thread !== undefined;
  // resume's path first: its results live in the chain cache, never in the per-key entries below
  // a window is read from the repo every time: neither cache is keyed by it
  if (!shaped && !filtered && !opts.verify && !window) {
    const known = await fromHeads(ctx, tip, stopLabel(stop), opts.format, view, opts.write);
    if (known) return known;
  }
  const cache = MaterializeCache.forRepo(ctx.gitdir);
  // pins are annotations, which change without the commit changing: a masked result is keyed by the notes too
  const shape = shaped ? ` view=${view} mask=${mask ?? '-'}${mask !== undefined ? ` notes=${ctx.refs.read(refs.notes) ?? '-'}` : ''}` : '';
  const agents = opts.for !== undefined ? ` for=${JSON.stringify(opts.for)} cursor=${cursor ?? '-'}` : '';
  const key = `${tip} ${opts.format ?? ''} ${stopLabel(stop)}${shape}${agents}${filtered ? ` thread=${JSON.stringify(opts.thread)}` : ''}`;
  if (!opts.verify && !window) {
    const hit = await cache.get(`${key} record`);
    const bytes = hit && (await cache.get(key));
    const maskedHit = mask === undefined ? Buffer.from('0') : await cache.get(`${key} masked`);
    if (hit && bytes && maskedHit) {
      const [format, tier, from, unknown, ...commits] = Buffer.from(hit).toString('utf8').split('\n');
      const masked = Number(Buffer.from(maskedHit).toString('utf8'));
      return { bytes, format, tier: tier as Tier, from: from.split(','), ...(unknown ? { unknown } : {}), commits, stop: stopLabel(stop), view, masked, cached: true, binary: isBinary(format) };
    }
  }
  const walk = await walkContext(ctx, tip, stop, spec);
  const stored = walk.tipFormat;
  const metas = shaped || filtered ? (await readEntries(ctx.engine, walk.parts)).map((e) => e.meta) : [];
  // what the agent has seen: its cursor's commit and what it follows (everything when it has none)
  const seen = new Set(cursor === null ? walk.parts.map((p) => p.oid) : await ctx.firstParents(cursor.slice(4)));
  if (filtered) {
    walk.parts = walk.parts.filter((_, i) => metas[i].thread_id === opts.thread);
    metas.splice(0, metas.length, ...metas.filter((m) => m.thread_id === opts.thread));
    if (!walk.parts.length) throw new NotFoundError(`no commit of thread ${opts.thread} in the context at ${spec}`);
  }
  // without --format, a view of a format that cannot carry one is written in one that can
  const format = opts.format ?? (shaped ? viewFormatFor(stored) : stored);
  // resume's path: a byte-append chain in its own format is read through the chain's append-only cache
  if (!shaped && !filtered && !opts.verify && !window && walk.parts.length && walk.parts.every((p) => p.format === format) && knownFormat(format)?.concatRule === 'append')
    return appendChain(ctx, tip, walk.parts, format, stopLabel(stop), view, opts.write);
  const read = await readParts(ctx, walk.parts, { verify: opts.verify });
  const parts = window ? await windowParts(ctx, read, Date.parse(window.start)) : read;
  metas.splice(0, metas.length && read.length - parts.length); // the window drops whole commits from the front only
  if (!parts.length) return { bytes: new Uint8Array(), format, tier: 'native', from: [], commits: [], stop: stopLabel(stop), view, masked: 0, cached: false, binary: isBinary(format), ...(window ? { window } : {}) };
  const artifacts = parts.map((p) => p.artifact);
  if (shaped) checkViewCarrier(format, view, mask, opts.for);
  const from = [...new Set(parts.map((p) => p.format))];
  const choice = translationTier(
    format,
    parts.map((p) => p.format),
    (name) => {
      const f = knownFormat(name);
      const o = outputFormat(name);
      if (o) return { toNeutral: false, fromNeutral: false, output: o.tier };
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
  if (tier === 'raw') bytes = rawOutput().render(parts.map((p, i) => ({ id: fullId(p.oid), type: p.type, format: p.format, bytes: artifacts[i] })));
  else if (tier === 'native') bytes = storageFormat(format).concat(artifacts);
  else if (tier === 'field-level') bytes = storageFormat(format).concat(await upgradeRuns(ctx, format, parts));
  else {
    const shape = (ms: ReturnType<typeof neutralMessages>) => (view === 'conversation' ? conversationView(ms) : ms);
    let messages = shape(neutralMessages(parts));
    if (mask !== undefined) {
      const pinned = await pinnedMessages(ctx, parts, messages, shape);
      ({ messages, masked } = maskToolOutputs(messages, { keepTurns: mask, pinned }));
    }
    if (opts.for !== undefined) {
      const from = messageSources(parts, messages, shape).map((ps) => ps[0]);
      messages = forView(messages.map((m, i) => ({ message: m, author: from[i] === undefined ? undefined : metas[from[i]!].author, unseen: from[i] !== undefined && !seen.has(parts[from[i]!].oid) })), opts.for);
    }
    const out = outputFormat(format);
    const target = out?.tier === 'rendering' ? undefined : storageFormat(format);
    // a runtime's session gets that runtime's own preamble on resume, not the source's stale one
    if (target?.runtime !== undefined) messages = forRuntime(messages, target.runtime);
    bytes = out?.tier === 'rendering' ? out.render(messages) : target!.fromNeutral!(messages);
  }
  const commits = parts.map((p) => fullId(p.oid));
  const written = tier === 'raw' ? rawOutput().name : format;
  if (window) return { bytes, format: written, tier, from, ...(unknown ? { unknown } : {}), commits, stop: stopLabel(stop), view, masked, cached: false, binary: isBinary(written), window };
  await cache.put(key, bytes);
  if (mask !== undefined) await cache.put(`${key} masked`, Buffer.from(String(masked)));
  await cache.put(`${key} record`, Buffer.from([written, tier, from.join(','), unknown ?? '', ...commits].join('\n')));
  return { bytes, format: written, tier, from, ...(unknown ? { unknown } : {}), commits, stop: stopLabel(stop), view, masked, cached: false, binary: isBinary(written) };
}

const isBinary = (format: string) => knownFormat(format)?.binary === true;

/**
 * A chain in a byte-append format, natively: the cached prefix of the chain's append-only cache
 * (every tip of the chain is a prefix of it), then only the artifacts past it, read from the repo
 * and appended to the cache when they extend it.
 */
async function appendChain(ctx: RepoContext, tip: string, walked: readonly Walked[], format: string, stop: string, view: View, write?: (chunk: Uint8Array) => void): Promise<Materialized> {
  const cache = new ChainCache(ctx.gitdir, walked[0].oid, format);
  const entries = cache.entries();
  let k = 0;
  while (k < entries.length && k < walked.length && entries[k].oid === walked[k].oid) k++;
  // the index starts at the walk's base (its key) and its segments match their hashes, or it is rebuilt
  // streamed: the cached prefix is checked now and copied to the output block by block, never held whole
  let head = entries.length && k === 0 ? null : write ? (cache.prefixOk(k) ? STREAMED : null) : cache.prefix(k);
  if (head === null) {
    // the cached bytes are not what the index says: read it all again, and cache it anew
    cache.reset();
    [k, head] = [0, new Uint8Array(0)];
  }
  const extends_ = k === 0 || k === entries.length;
  let bytes: Uint8Array;
  let fresh = walked.length - k;
  if (k === 0) bytes = await coldChain(ctx, cache, walked, format, write);
  else {
    const parts = await readParts(ctx, walked.slice(k));
    if (extends_) cache.append(walked[k - 1].oid, parts.map((p) => ({ oid: p.oid, bytes: p.artifact })));
    if (write) cache.copyPrefix(k, write);
    bytes = joined(format, [head, ...parts.map((p) => p.artifact)], write);
    fresh = parts.length;
  }
  if (extends_) new ChainHeads(ctx.gitdir).record({ tip, stop, format, base: walked[0].oid, n: walked.length });
  const commits = walked.map((p) => fullId(p.oid));
  return { bytes, format, tier: 'native', from: [format], commits, stop, view, masked: 0, cached: fresh === 0, binary: isBinary(format) };
}

/**
 * A whole chain read from the repo, nothing cached: each artifact goes to the chain cache's data file
 * as it arrives, and the result is that file, handed to `write` piece by piece (STREAMED) or read
 * back once, so memory never holds every artifact and then their join. Without the cache (its lock
 * held elsewhere, a read-only store) the artifacts are joined in memory.
 */
async function coldChain(ctx: RepoContext, cache: ChainCache, walked: readonly Walked[], format: string, write?: (chunk: Uint8Array) => void): Promise<Uint8Array> {
  const w = cache.writer(null);
  if (!w) {
    const pieces: Uint8Array[] = [];
    await eachPart(ctx, walked, { piece: (bytes) => pieces.push(Uint8Array.from(bytes)), done: () => {} });
    return storageFormat(format).concat(pieces);
  }
  try {
    await eachPart(ctx, walked, { piece: (bytes) => w.write(bytes), done: (c) => w.mark(c.oid) });
    let bytes: Uint8Array = STREAMED;
    if (write) w.copyTo(write);
    else bytes = w.read();
    w.close();
    return bytes;
  } catch (e) {
    w.abort();
    throw e;
  }
}

/** A byte-append chain's cached prefix and new artifacts: handed to `write` one by one (STREAMED), else joined. */
function joined(format: string, pieces: Uint8Array[], write?: (chunk: Uint8Array) => void): Uint8Array {
  if (!write) return storageFormat(format).concat(pieces);
  for (const p of pieces) if (p.length) write(p);
  return STREAMED;
}

/** How far back a tip is looked for among the recorded heads before the whole chain is walked. */
const NEAR = 16;

/**
 * A tip the chain heads know (materialized before), or one a few deltas past a known one: the
 * cached prefix, plus those deltas read from the repo, without walking the whole chain.
 */
async function fromHeads(ctx: RepoContext, tip: string, stop: string, requested: string | undefined, view: View, write?: (chunk: Uint8Array) => void): Promise<Materialized | null> {
  const heads = new ChainHeads(ctx.gitdir);
  const known = heads.all().filter((h) => h.stop === stop && (requested === undefined || h.format === requested));
  if (known.length === 0) return null;
  const byTip = new Map(known.map((h) => [h.tip, h]));
  let head = byTip.get(tip);
  let past: Walked[] = [];
  if (!head) {
    // a few commits at a time: the usual case is one checkpoint past the last resume
    let links: Awaited<ReturnType<typeof ctx.engine.chain>> = [];
    let at = -1;
    for (let n = 2; at < 0 && n <= NEAR; n *= 2) {
      links = await ctx.engine.chain(tip, n);
      at = links.findIndex((l) => byTip.has(l.oid));
      if (links.length < n) break;
    }
    if (at <= 0) return null;
    head = byTip.get(links[at].oid)!;
    // only deltas of the chain's own format: anything else may end the walk or need translation
    for (const l of links.slice(0, at)) {
      const t = parseTrailers(l.message);
      if (t['Ctx-Type'] !== 'delta' || t['Ctx-Format'] !== head.format) return null;
    }
    past = links.slice(0, at).reverse().map((l) => ({ ...l, type: 'delta' as const, format: head!.format }));
  }
  const cache = new ChainCache(ctx.gitdir, head.base, head.format);
  const entries = cache.entries();
  if (entries.length < head.n || entries[head.n - 1].oid !== head.tip) return null;
  // streamed: the cached prefix is checked now and copied to the output block by block, never held whole
  const prefix = write ? (cache.prefixOk(head.n) ? STREAMED : null) : cache.prefix(head.n);
  if (prefix === null) return null;
  const fresh = await readParts(ctx, past);
  if (fresh.length && entries.length === head.n) {
    cache.append(head.tip, fresh.map((p) => ({ oid: p.oid, bytes: p.artifact })));
    heads.record({ ...head, tip, n: head.n + fresh.length });
  }
  if (write) cache.copyPrefix(head.n, write);
  const bytes = joined(head.format, [prefix, ...fresh.map((p) => p.artifact)], write);
  const commits = [...entries.slice(0, head.n).map((e) => fullId(e.oid)), ...fresh.map((p) => fullId(p.oid))];
  return { bytes, format: head.format, tier: 'native', from: [head.format], commits, stop, view, masked: 0, cached: fresh.length === 0, binary: isBinary(head.format) };
}

function checkViewCarrier(format: string, view: View, mask: number | undefined, agent?: string) {
  if (viewCarriers().includes(format)) return;
  const what = agent !== undefined && view === 'reasoning' && mask === undefined ? '--for' : view !== 'reasoning' ? `--view ${view}` : '--mask-tool-outputs';
  const mark = mask !== undefined && view !== 'reasoning' ? ' (and --mask-tool-outputs)' : '';
  throw new UsageError(`${what}${mark} cannot be written as ${format}: give --format ${viewCarriers().join(', ')}`);
}

/** Runs of artifacts in an older format, each mapped field by field into `format`; the rest as they are. */
async function upgradeRuns(ctx: RepoContext, format: string, parts: readonly ContextPart[]): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const run of runsOf(parts)) {
    if (run[0].format === format) {
      out.push(...run.map((p) => p.artifact));
      continue;
    }
    const [first] = await readEntries(ctx.engine, [run[0]]);
    out.push(storageFormat(run[0].format).fieldMap!.upgrade(parseRun(run), { timestamp: first.meta.created_at }));
  }
  return out;
}
