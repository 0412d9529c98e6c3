// Size limits of a branch's state (the REAS AgentContext defaults), configurable as ctx.state.*.
import { UsageError } from '../../errors/index.js';

export interface StateLimits {
  /** every namespace blob and externalized value together, in bytes */
  maxTotal: number;
  /** one namespace blob (`state/<namespace>.json`), in bytes */
  maxNamespace: number;
  /** items of any one array */
  maxArrayItems: number;
  /** a key's value (canonical JSON) larger than this is stored as its own blob */
  externalizeAbove: number;
  /** an artifact's `content` (in an `artifacts` array) larger than this is stored as its own blob */
  maxInlineArtifact: number;
}

export const DEFAULT_LIMITS: StateLimits = {
  maxTotal: 10 * 1024 * 1024,
  maxNamespace: 2 * 1024 * 1024,
  maxArrayItems: 1000,
  externalizeAbove: 100 * 1024,
  maxInlineArtifact: 50 * 1024,
};

/** The limits from git config `ctx.state.<name>` (whole numbers), else the defaults. */
export function limitsFrom(config: ReadonlyMap<string, string>): StateLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const name of Object.keys(out) as (keyof StateLimits)[]) {
    const v = config.get(`ctx.state.${name.toLowerCase()}`);
    if (v === undefined) continue;
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`config ctx.state.${name}: ${v} is not a whole number of ${name === 'maxArrayItems' ? 'items' : 'bytes'} (1 or more)`);
    out[name] = Number(v);
  }
  return out;
}

/** The first array in `value` longer than `max`, by JSON path; null when there is none. */
export function arrayOverLimit(value: unknown, max: number, path: string): { path: string; items: number } | null {
  if (Array.isArray(value)) {
    if (value.length > max) return { path, items: value.length };
    for (let i = 0; i < value.length; i++) {
      const hit = arrayOverLimit(value[i], max, `${path}[${i}]`);
      if (hit) return hit;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const hit = arrayOverLimit(v, max, `${path}.${k}`);
      if (hit) return hit;
    }
  }
  return null;
}
