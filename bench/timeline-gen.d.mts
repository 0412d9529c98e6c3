// The types of timeline-gen.mjs, for the tests that import it (test/resolve.test.ts).

/** A generated commit: its principal, time (ms), depth in its chain, id and branch. */
export interface TimelineCommit {
  principal: string;
  t: number;
  depth: number;
  oid: string;
  branch: string;
}

export const T0: number;
export const SPAN: number;
export const LINE: string;
export function prng(seed: number): () => number;
export function generateTimeline(gitdir: string, opts: { commits: number; principals?: number; chain?: number; seed?: number }): TimelineCommit[];
export function linearResolve(all: TimelineCommit[], principal: string, t: number): TimelineCommit | null;
