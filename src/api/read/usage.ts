// Token usage and estimated cost of a store's sessions (`ctx usage`): what each runtime's
// transcript records of its API responses, read through each artifact's format, grouped.
import { branches } from './read.js';
import { knownFormat } from '../../formats/registry.js';
import type { UsageRecord } from '../../formats/format.js';
import { readArtifacts, readEntries } from '../../store/context-commits.js';
import { storePrices, type Price, type Prices } from './prices.js';
import { UsageCache } from './usage-cache.js';
import { linksOf, ownedChains } from './owned-chains.js';
import type { RepoContext } from '../repo/repo-context.js';

export const USAGE_GROUPS = ['session', 'day', 'model', 'project'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export interface UsageRow {
  /** the session's branch, the day (UTC), the model or the project (working directory) */
  key: string;
  responses: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** USD of the priced responses; null when none is priced */
  cost: number | null;
  /** models of the group with no price (their tokens are counted, their cost is not) */
  unpriced: string[];
}

export interface UsageReport {
  by: UsageGroup;
  since?: string;
  rows: UsageRow[];
  total: UsageRow;
}

/** One response, where it was found: the form the web view groups as it likes (groupUsage). */
export interface CountedResponse extends UsageRecord {
  /** the branch the response's commit is counted for */
  session: string;
}

/**
 * Every branch's chain, each commit read once (a fork's shared commits count for the branch that
 * sorts first), each response once per session (Claude Code repeats a response's usage on every line of it).
 */
export async function usage(ctx: RepoContext, opts: { by?: UsageGroup; since?: string; prices?: Prices } = {}): Promise<UsageReport> {
  return groupUsage(await usageResponses(ctx), { ...opts, prices: opts.prices ?? storePrices(ctx.gitdir) });
}

/**
 * Every response of every branch, in branch order then chain order. Each commit's responses come from
 * the usage cache (by commit id) or, the first time, from its artifact; the chains are walked level by
 * level over all branches at once (one pipelined read a level, no process per branch).
 */
export async function usageResponses(ctx: RepoContext): Promise<CountedResponse[]> {
  const sorted = (await branches(ctx)).sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const owned = await ownedChains(ctx, sorted.map((b) => b.id.slice(4)));
  const cache = UsageCache.open(ctx.gitdir);
  await fillCache(ctx, cache, owned.flat());
  cache.save();
  const counted: CountedResponse[] = [];
  for (const [n, b] of sorted.entries()) {
    const ids = new Map<string, number>();
    let model: string | undefined;
    let cwd: string | undefined;
    for (const oid of owned[n])
      for (const r of cache.get(oid)!) {
        model = r.model ?? model;
        cwd = r.cwd ?? cwd;
        const rec: CountedResponse = { ...r, model, cwd, session: b.name };
        const at = r.id === undefined ? undefined : ids.get(r.id);
        if (at !== undefined) counted[at] = rec;
        else {
          if (r.id !== undefined) ids.set(r.id, counted.length);
          counted.push(rec);
        }
      }
  }
  return counted;
}

/** The responses of the commits the cache lacks, read from their artifacts (only those whose format records usage) in one pipelined pass. */
async function fillCache(ctx: RepoContext, cache: UsageCache, commits: readonly string[]): Promise<void> {
  const todo = commits.filter((oid) => !cache.has(oid));
  if (!todo.length) return;
  const entries = await readEntries(ctx.engine, await linksOf(ctx.engine, todo));
  const wanted = entries.filter((e) => knownFormat(e.meta.format)?.usage);
  for (const e of entries) if (!knownFormat(e.meta.format)?.usage) cache.set(e.oid, []);
  const artifacts = await readArtifacts(ctx.engine, wanted);
  wanted.forEach((e, i) => {
    const format = knownFormat(e.meta.format)!;
    let parsed: unknown[];
    try {
      parsed = format.parse(artifacts[i], { lastOfFile: true });
    } catch {
      return cache.set(e.oid, []); // an artifact its format cannot read has no usage to give
    }
    cache.set(e.oid, format.usage!(parsed).map((r) => ({ ...r, time: r.time ?? e.meta.created_at })));
  });
}

/** Group responses (usageResponses) by session, day, model or project, since a time, priced. */
export function groupUsage(counted: readonly CountedResponse[], opts: { by?: UsageGroup; since?: string; prices: Prices }): UsageReport {
  const by = opts.by ?? 'session';
  const prices = opts.prices;
  const start = opts.since;
  const groups = new Map<string, Group>();
  const total = new Group('total');
  for (const r of counted) {
    if (start !== undefined && (r.time ?? '') < start) continue;
    const key = keyOf(r, by);
    if (!groups.has(key)) groups.set(key, new Group(key));
    const price = r.model ? prices.of(r.model, r.time, r.input + r.cacheRead + r.cacheWrite) : null;
    for (const g of [groups.get(key)!, total]) g.add(r, r.model ?? '(unknown)', price);
  }
  const rows = [...groups.values()].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0)).map((g) => g.row());
  return { by, ...(start !== undefined ? { since: start } : {}), rows, total: total.row() };
}

type Tokens = Pick<UsageRecord, 'input' | 'output' | 'cacheRead' | 'cacheWrite'>;
const FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;

/** A group's sums; its cost is each price's summed tokens times that price, so it is exact to the table. */
class Group {
  responses = 0;
  sums: Tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  priced = new Map<string, { price: Price; tokens: Tokens }>();
  unpriced: string[] = [];
  constructor(readonly key: string) {}

  add(r: UsageRecord, model: string, price: Price | null): void {
    this.responses++;
    for (const f of FIELDS) this.sums[f] += r[f];
    if (!price) {
      if (!this.unpriced.includes(model)) this.unpriced.push(model);
      return;
    }
    const k = `${model}\0${FIELDS.map((f) => price[f]).join(',')}`;
    if (!this.priced.has(k)) this.priced.set(k, { price, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });
    const t = this.priced.get(k)!.tokens;
    for (const f of FIELDS) t[f] += r[f];
  }

  row(): UsageRow {
    let cost: number | null = null;
    for (const { price, tokens } of this.priced.values()) cost = (cost ?? 0) + FIELDS.reduce((s, f) => s + tokens[f] * price[f], 0) / 1e6;
    return { key: this.key, responses: this.responses, ...this.sums, cost, unpriced: this.unpriced.sort() };
  }
}

function keyOf(r: CountedResponse, by: UsageGroup): string {
  if (by === 'session') return r.session;
  if (by === 'day') return (r.time ?? '').slice(0, 10) || '(unknown)';
  if (by === 'model') return r.model ?? '(unknown)';
  return r.cwd ?? '(unknown)';
}

