// Context commit ids: `ctx-` + git commit id; printed with 12 hex digits, any unique prefix of 4+.
export const ID_PREFIX = 'ctx-';
export const SHORT = 12;

export function fullId(oid: string): string {
  return ID_PREFIX + oid;
}

export function shortId(oid: string): string {
  return ID_PREFIX + oid.slice(0, SHORT);
}

export interface ParsedSpec {
  /** a ref-like name or a hex prefix (with `ctx-` removed when `hex` is set) */
  base: string;
  /** whether `base` can only be a hex prefix (it was written `ctx-<hex>`) */
  explicitId: boolean;
  /** `NAME~N`: the N-th first-parent ancestor */
  ancestor: number;
}

/** `ctx-1a2b~3`, `alice/auth-fix~2`, `1a2b3c4d` → base, whether it is an explicit id, ancestor count. */
export function parseSpec(spec: string): ParsedSpec {
  let base = spec;
  let ancestor = 0;
  const m = /^(.*?)((?:~\d*|\^)+)$/.exec(spec);
  if (m && m[1] !== '') {
    base = m[1];
    for (const step of m[2].match(/~\d*|\^/g)!) ancestor += step === '^' || step === '~' ? 1 : Number(step.slice(1));
  }
  const explicitId = base.startsWith(ID_PREFIX);
  return { base: explicitId ? base.slice(ID_PREFIX.length).toLowerCase() : base, explicitId, ancestor };
}

export function isHexPrefix(s: string): boolean {
  return /^[0-9a-f]{4,40}$/i.test(s);
}
