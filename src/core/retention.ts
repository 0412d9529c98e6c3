// Retention rules (`ctx.<pattern>.retention` in the store's config, as git's
// `gc.<pattern>.reflogExpire`): which branches a pattern names and how long they are kept.
import { UsageError } from '../errors/index.js';

export interface RetentionRule {
  /** a branch-name glob: `*` any run of characters (`/` included), `?` one character */
  pattern: string;
  /** milliseconds a branch is kept after its tip's created_at; null: `never` expires */
  keepMs: number | null;
  /** the value as written, for reports */
  keep: string;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `30s`, `15m`, `12h`, `7d`, `2w`, or `never`. */
export function parseRetention(key: string, value: string): number | null {
  const v = value.trim().toLowerCase();
  if (v === 'never') return null;
  const ms = durationMs(v);
  if (ms === null) throw new UsageError(`config ${key}: not a duration: ${value} (e.g. 7d, 12h, 2w, never)`);
  return ms;
}

/** `30s`, `15m`, `12h`, `7d`, `2w` in milliseconds; null when it is not one. */
export function durationMs(value: string): number | null {
  const m = /^(\d{1,9})([smhdw])$/.exec(value.trim().toLowerCase());
  return m ? Number(m[1]) * UNIT_MS[m[2]] : null;
}

/** The rules among config entries (`ctx.<pattern>.retention`), in the order the file gives them. */
export function retentionRules(config: ReadonlyMap<string, string>): RetentionRule[] {
  const rules: RetentionRule[] = [];
  for (const [key, value] of config) {
    const m = /^ctx\.(.+)\.retention$/.exec(key);
    if (!m) continue;
    rules.push({ pattern: m[1], keepMs: parseRetention(key, value), keep: value.trim() });
  }
  return rules;
}

export function globMatches(pattern: string, name: string): boolean {
  const re = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 's').test(name);
}

/** The first rule (in config order) whose pattern matches the branch. */
export function ruleFor(rules: readonly RetentionRule[], branch: string): RetentionRule | undefined {
  return rules.find((r) => globMatches(r.pattern, branch));
}
