// The whole context at a commit: walk first parents to the stop, concatenate by the format rule.
import { BadInputError, IntegrityError, UsageError } from '../errors/index.js';
import { artifactHash } from '../core/blake3.js';
import { fullId, shortId } from '../core/ids.js';
import { contributing, stopIndex, stopLabel, type Stop } from '../core/materialize.js';
import { checkOutputFormat, storageFormat } from '../formats/registry.js';
import { renderRaw } from '../formats/raw.js';
import { MaterializeCache } from '../store/cache.js';
import { readArtifacts } from '../store/context-commits.js';
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
  tier: 'native' | 'raw';
  /** the commits whose artifacts were used, oldest first */
  commits: string[];
  stop: string;
  cached: boolean;
}

export async function materialize(ctx: RepoContext, spec: string, opts: MaterializeOptions = {}): Promise<Materialized> {
  const tip = await ctx.resolve(spec);
  const stop = await parseStop(ctx, opts.stop ?? 'compaction');
  if (opts.format !== undefined) checkOutputFormat(opts.format);
  const cache = MaterializeCache.forRepo(ctx.gitdir);
  const key = `${tip} ${opts.format ?? ''} ${stopLabel(stop)}`;
  if (!opts.verify) {
    const hit = await cache.get(`${key} commits`);
    const bytes = hit && (await cache.get(key));
    if (hit && bytes) {
      const [format, tier, ...commits] = Buffer.from(hit).toString('utf8').split('\n');
      return { bytes, format, tier: tier as Materialized['tier'], commits, stop: stopLabel(stop), cached: true };
    }
  }
  const walked = await walkToStop(ctx, tip, stop, spec);
  const parts = contributing(walked);
  const artifacts = await readArtifacts(ctx.engine, parts);
  if (opts.verify) {
    for (let i = 0; i < parts.length; i++)
      if ((await artifactHash(artifacts[i])) !== parts[i].meta.artifact)
        throw new IntegrityError(`${shortId(parts[i].oid)}: artifact does not match its BLAKE3 in meta.json`);
  }
  const format = opts.format ?? walked[0].meta.format;
  let bytes: Uint8Array;
  let tier: Materialized['tier'] = 'native';
  if (format === 'raw') {
    tier = 'raw';
    bytes = renderRaw(parts.map((p, i) => ({ id: fullId(p.oid), type: p.meta.type, format: p.meta.format, bytes: artifacts[i] })));
  } else {
    const foreign = parts.find((p) => p.meta.format !== format);
    if (foreign)
      throw new BadInputError(`${shortId(foreign.oid)} holds ${foreign.meta.format}, not ${format}: materialize it as ${foreign.meta.format} or raw`);
    bytes = storageFormat(format).concat(artifacts);
  }
  const commits = parts.map((p) => fullId(p.oid));
  await cache.put(key, bytes);
  await cache.put(`${key} commits`, Buffer.from([format, tier, ...commits].join('\n')));
  return { bytes, format, tier, commits, stop: stopLabel(stop), cached: false };
}

async function parseStop(ctx: RepoContext, stop: string): Promise<Stop> {
  if (stop === 'compaction' || stop === 'root') return { kind: stop };
  if (stop === '') throw new UsageError('--stop takes compaction, root or a commit id');
  return { kind: 'ancestor', oid: await ctx.resolve(stop) };
}

/** Reads metas tip-first in growing batches until the stop is found. */
async function walkToStop(ctx: RepoContext, tip: string, stop: Stop, spec: string) {
  const ids = await ctx.engine.firstParents(tip);
  const chain: Awaited<ReturnType<RepoContext['readMetas']>> = [];
  for (let batch = 64; ; batch *= 4) {
    chain.push(...(await ctx.readMetas(ids.slice(chain.length, chain.length + batch))));
    const n = stopIndex(chain, stop, chain.length === ids.length);
    if (n === -2) throw new UsageError(`--stop ${stopLabel(stop)} is not an ancestor of ${spec}`);
    if (n >= 0) return chain.slice(0, n);
  }
}
