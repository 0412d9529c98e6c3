// Rolling windows (`--since`, `ctx.window.<branch>`): where a window starts, and where it cuts a
// context. Pure: the clock and the entries are handed in.
import { UsageError } from '../errors/index.js';
import { durationMs, globMatches } from './retention.js';

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2})))?$/;

/** ISO 8601 with a zone, or a date (its first instant, UTC), in ms; NaN for anything else (no zone, February 30, 25:00). */
export function parseInstant(s: string): number {
  const m = TIME.exec(s.trim());
  if (!m) return NaN;
  const [y, mo, d, h = 0, mi = 0, sec = 0, zh = 0, zm = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v))) as number[];
  const valid = mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate() && h <= 23 && mi <= 59 && sec <= 59 && zh <= 23 && zm <= 59;
  return valid ? Date.parse(s.trim()) : NaN;
}

/** A window as asked for and the instant it starts at (ISO, ms). */
export interface Window {
  /** the value given: a duration (`24h`), a time, from --since or `what` */
  since: string;
  start: string;
}

/**
 * `--since` (or a config value, named by `what` in the error): a duration back from `now`
 * (`90s`, `30m`, `24h`, `7d`, `2w`), a time (ISO 8601 with a zone, or a date), or `all` (no window: null).
 */
export function parseSince(value: string, now: Date, what = '--since'): Window | null {
  const v = value.trim();
  if (v.toLowerCase() === 'all') return null;
  const ms = durationMs(v);
  const t = ms !== null ? now.getTime() - ms : parseInstant(v);
  if (Number.isNaN(t)) throw new UsageError(`${what}: not a duration or a time: '${value}' (e.g. 24h, 7d, 2026-11-20T14:03:00Z, all)`);
  return { since: v, start: new Date(t).toISOString() };
}

/**
 * The configured window of a branch: `ctx.window.<branch>` (git lower-cases that key, so it names
 * branches without `/` or `.`), else the first `ctx.<pattern>.window` whose glob matches.
 */
export function configuredWindow(config: ReadonlyMap<string, string>, branch: string): { key: string; value: string } | undefined {
  const exact = `ctx.window.${branch.toLowerCase()}`;
  if (config.has(exact)) return { key: exact, value: config.get(exact)! };
  for (const [key, value] of config) {
    const m = /^ctx\.(.+)\.window$/.exec(key);
    if (m && globMatches(m[1], branch)) return { key, value };
  }
  return undefined;
}

/** One piece of a context the window may start at: an entry (a line) or a whole commit's artifact. */
export interface WindowUnit {
  /** its own time (ms), where the format records one; else undefined */
  time: number | undefined;
  /** tool calls it makes and tool results it answers, by call id */
  calls: readonly string[];
  results: readonly string[];
}

/**
 * Where the window starts among units in chain order: the first timed unit at or after `start`,
 * moved back over untimed units just before it (they go with the entry they precede), and back to
 * the call of any result it keeps. `units.length`: nothing is in the window.
 */
export function windowCut(units: readonly WindowUnit[], start: number): number {
  let k = units.findIndex((u) => u.time !== undefined && u.time >= start);
  if (k < 0) return units.length;
  while (k > 0 && units[k - 1].time === undefined) k--;
  for (let moved = true; moved; ) {
    moved = false;
    const answered = new Set(units.slice(k).flatMap((u) => u.results));
    const call = units.slice(0, k).findIndex((u) => u.calls.some((c) => answered.has(c)));
    if (call >= 0) [k, moved] = [call, true];
  }
  return k;
}
