// Two commits' conversations compared from their fork point (the web view's /diff, /api/diff): the
// messages both begin with, the commit where their chains meet, and each one's continuation after.
import type { RepoContext } from '../api/repo/repo-context.js';
import type { NeutralMessage } from '../core/neutral.js';
import { fullId } from '../core/ids.js';
import { diffJson } from '../output/records.js';
import type { MessageCache } from './messages.js';
import { cutMessage } from './parts.js';

/** How long a prefix two message lists share, each message compared whole. */
export function sharedPrefix(a: readonly NeutralMessage[], b: readonly NeutralMessage[]): number {
  let n = 0;
  // serialized one pair at a time: the first difference ends it, however long the rest
  while (n < a.length && n < b.length && (a[n] === b[n] || JSON.stringify(a[n]) === JSON.stringify(b[n]))) n++;
  return n;
}

/** The newest commit both chains hold (their merge base: context commits have one parent), or null when they share none. */
async function chainsMeet(repo: RepoContext, a: string, b: string): Promise<string | null> {
  const [ca, cb] = await Promise.all([repo.engine.chain(a), repo.engine.chain(b)]);
  const inB = new Set(cb.map((l) => l.oid));
  return ca.find((l) => inB.has(l.oid))?.oid ?? null;
}

/**
 * `stop`: where each context starts (default the root, so a fork compacted after it still shows
 * what it shares); the continuations are each context's messages past the shared prefix, in order,
 * the first `limit` of each.
 */
export async function compare(repo: RepoContext, cache: MessageCache, a: string, b: string, stop = 'root', limit = CONTINUATION) {
  const [x, y] = await Promise.all([cache.get(repo, a, stop), cache.get(repo, b, stop)]);
  const common = sharedPrefix(x.messages, y.messages);
  const base = await chainsMeet(repo, x.id.slice(4), y.id.slice(4));
  const rest = (ms: readonly NeutralMessage[]) => ms.slice(common, common + limit).map((m, i) => ({ index: common + i, message: cutMessage(m) }));
  return diffJson(x.id, y.id, { stop, base: base && fullId(base), common, totalA: x.messages.length, totalB: y.messages.length, onlyA: rest(x.messages), onlyB: rest(y.messages) });
}

/** Messages of each continuation sent at first (the page asks /api/messages for the rest, as a commit's page does). */
export const CONTINUATION = 200;
