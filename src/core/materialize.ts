// Where a materialization starts, and how artifacts become one context. Pure: no git, no fs.
import { SYNTHETIC_TRAILER, parseTrailers, type CommitType } from './meta.js';

/** What the walk needs of a commit: from its trailers, or from meta.json where they cannot tell. */
export interface WalkCommit {
  oid: string;
  type: CommitType;
  format: string;
  /** for snapshots: the stop strategy it materializes (absent: a whole context) */
  snapshotOf?: string;
  /** the commit message: its trailers mark synthetic compactions */
  message?: string;
}

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
export function stopIndex(chain: readonly WalkCommit[], stop: Stop, complete: boolean): number {
  for (let i = 0; i < chain.length; i++) {
    const { oid, type, snapshotOf } = chain[i];
    if (stop.kind === 'ancestor' && oid === stop.oid) return i + 1;
    if (type === 'snapshot' && (snapshotOf === undefined || snapshotOf === stopLabel(stop))) return i + 1;
    if (stop.kind === 'compaction' && type === 'compaction') return i + 1;
  }
  if (!complete) return -1;
  return stop.kind === 'ancestor' ? -2 : chain.length;
}

/** Which commits of the walked range contribute artifacts, oldest first. */
export function contributing<T extends WalkCommit>(walked: readonly T[]): T[] {
  // a ctx-compact compaction adds bytes the chain never held: only a walk that stops at it takes it
  const synthetic = (c: T) => c.type === 'compaction' && c.message !== undefined && parseTrailers(c.message)[SYNTHETIC_TRAILER] !== undefined;
  const out = walked.filter((c, i) => !((synthetic(c) || (c.type === 'snapshot' && c.snapshotOf !== undefined)) && i !== walked.length - 1));
  return out.reverse();
}

/** How a materialization gets from the stored formats to the requested one (DESIGN.md §4). */
export type Tier = 'native' | 'field-level' | 'structural' | 'rendering' | 'raw';

/**
 * What a format can do: read into and write from the neutral model, (an older version of a
 * runtime's format) which newer format its fields map into, (output-only formats) which tier writes
 * it. Undefined: not known to this build.
 */
export type FormatCaps = (name: string) => { toNeutral: boolean; fromNeutral: boolean; upgradesTo?: string; output?: OutputTier } | undefined;

/** The tiers that write an output-only format. */
export type OutputTier = Exclude<Tier, 'native' | 'field-level' | 'structural'>;

export type TierChoice = { tier: Tier; unknown?: string } | { tier: null; refused: string };

/**
 * The first tier that can produce `requested` from artifacts stored in `stored` (one entry per
 * artifact). A format this build does not know falls back to raw (`unknown` names it); a known
 * format that cannot be written from the neutral model is `refused`, naming the first stored other.
 */
export function translationTier(requested: string, stored: readonly string[], caps: FormatCaps): TierChoice {
  const output = caps(requested)?.output;
  if (output !== undefined && output !== 'rendering') return { tier: output };
  const unknown = stored.find((f) => caps(f) === undefined);
  if (unknown !== undefined) return { tier: 'raw', unknown };
  if (stored.every((f) => f === requested)) return { tier: 'native' };
  if (stored.every((f) => f === requested || caps(f)!.upgradesTo === requested)) return { tier: 'field-level' };
  const unreadable = stored.find((f) => f !== requested && !caps(f)!.toNeutral);
  if (unreadable !== undefined) return { tier: null, refused: unreadable };
  if (output === 'rendering') return { tier: output };
  if (caps(requested)?.fromNeutral) return { tier: 'structural' };
  return { tier: null, refused: stored.find((f) => f !== requested)! };
}

/** Consecutive items in one format, as [start, end) ranges in chain order. */
export function formatRuns(formats: readonly string[]): [number, number][] {
  const runs: [number, number][] = [];
  for (let i = 0; i < formats.length; ) {
    let j = i + 1;
    while (j < formats.length && formats[j] === formats[i]) j++;
    runs.push([i, j]);
    i = j;
  }
  return runs;
}
