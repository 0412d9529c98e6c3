// Where a materialization starts, and how artifacts become one context. Pure: no git, no fs.
import type { Meta } from './meta.js';

export type Stop = { kind: 'compaction' } | { kind: 'root' } | { kind: 'ancestor'; oid: string };

export function stopLabel(stop: Stop): string {
  return stop.kind === 'ancestor' ? `ctx-${stop.oid}` : stop.kind;
}

/**
 * Given a chain tip-first, how many commits (from the tip) the materialization reads, or -1 when
 * the walk has not reached its stop yet (read more of the chain). `complete` says the chain given
 * reaches the root. A snapshot that is a whole context (no snapshot_of, or one of this stop)
 * ends the walk; a snapshot cached for another stop is skipped by `parts`.
 */
export function stopIndex(chain: readonly { oid: string; meta: Meta }[], stop: Stop, complete: boolean): number {
  for (let i = 0; i < chain.length; i++) {
    const { oid, meta } = chain[i];
    if (stop.kind === 'ancestor' && oid === stop.oid) return i + 1;
    if (meta.type === 'snapshot' && (!meta.snapshot_of || meta.snapshot_of.stop === stopLabel(stop))) return i + 1;
    if (stop.kind === 'compaction' && meta.type === 'compaction') return i + 1;
  }
  if (!complete) return -1;
  return stop.kind === 'ancestor' ? -2 : chain.length;
}

/** Which commits of the walked range contribute artifacts, oldest first. */
export function contributing<T extends { meta: Meta }>(walked: readonly T[]): T[] {
  const out = walked.filter((c, i) => !(c.meta.type === 'snapshot' && c.meta.snapshot_of && i !== walked.length - 1));
  return out.reverse();
}
