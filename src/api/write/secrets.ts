// The secret policy on the write path (DESIGN.md §9): redact (default), block or warn, before
// anything is hashed or written, so a store never holds what it must not push.
import { SecretFoundError, UsageError } from '../../errors/index.js';
import { countByRule, findSecrets, redactBytes, redactText, scanSecrets, type Finding } from '../../core/secret-rules.js';
import type { StorageFormat } from '../../formats/format.js';

export const SECRET_POLICIES = ['redact', 'block', 'warn'] as const;
export type SecretPolicy = (typeof SECRET_POLICIES)[number];

/** `--secrets` when given, else git config `ctx.secrets` (the repo's `config`), else redact. */
export function secretPolicy(config: ReadonlyMap<string, string>, override?: string): SecretPolicy {
  const value = override ?? config.get('ctx.secrets') ?? 'redact';
  if (!SECRET_POLICIES.includes(value as SecretPolicy))
    throw new UsageError(`unknown secret policy '${value}' (${SECRET_POLICIES.join(', ')})`, { hint: override === undefined ? 'fix git config ctx.secrets' : undefined });
  return value as SecretPolicy;
}

export interface ScreenedArtifact {
  artifact: Uint8Array;
  /** rule id → count, when secrets were redacted */
  redactions?: Record<string, number>;
  /** for people: secrets stored as they are under `warn` */
  warnings: string[];
}

/** Where the artifact came from, to name byte offsets: an import's file and the artifact's offset in it. */
export interface ArtifactOrigin {
  path?: string;
  offset?: number;
}

export function screenArtifact(fmt: StorageFormat, artifact: Uint8Array, policy: SecretPolicy, origin: ArtifactOrigin = {}): ScreenedArtifact {
  const findings = scanSecrets(artifact);
  if (findings.length === 0) return { artifact, warnings: [] };
  const where = (f: Finding) => `${f.rule} at byte ${f.offset + (origin.offset ?? 0)}${origin.path ? ` of ${origin.path}` : ''}`;
  if (policy === 'block') {
    const more = findings.length > 1 ? ` (and ${findings.length - 1} more)` : '';
    throw new SecretFoundError(`secret found: ${where(findings[0])}${more}; nothing written`, { hint: 'remove it, or use --secrets redact|warn (git config ctx.secrets)' });
  }
  if (policy === 'warn') return { artifact, warnings: findings.map((f) => `warning: secret stored as is (ctx.secrets=warn): ${where(f)}`) };
  if (!fmt.mapStrings) return { artifact: redactBytes(artifact, findings), redactions: countByRule(findings), warnings: [] };
  // binary formats: redact inside decoded strings, then encode again
  const all: Finding[] = [];
  const redacted = fmt.mapStrings(artifact, (s) => {
    const inString = findSecrets(s);
    all.push(...inString);
    return inString.length ? redactText(s, inString) : s;
  });
  // a secret split across CBOR string boundaries is not one the string walk sees: block rather than store it
  if (all.length === 0 || scanSecrets(redacted).length > 0)
    throw new SecretFoundError(`secret found but not redactable in ${fmt.name}: ${where(findings[0])}`, { hint: 'use --secrets warn to store it as is' });
  return { artifact: redacted, redactions: countByRule(all), warnings: [] };
}

/** Free-text metadata a write stores (meta.json, the commit message and author, a note): name → value. */
export type TextFields = Record<string, string | undefined>;

export interface ScreenedFields {
  fields: TextFields;
  redactions?: Record<string, number>;
  warnings: string[];
}

/**
 * The secret policy applied to metadata, as to artifacts: everything ctx writes is screened, not
 * only artifacts. `what` names the fields for people (`--summary`, `summary`).
 */
export function screenFields(fields: TextFields, policy: SecretPolicy, what: (field: string) => string = (f) => f): ScreenedFields {
  const out: TextFields = { ...fields };
  const all: Finding[] = [];
  const warnings: string[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const findings = findSecrets(value);
    if (findings.length === 0) continue;
    if (policy === 'block') {
      throw new SecretFoundError(`secret found: ${findings[0].rule} in ${what(field)}; nothing written`, { hint: 'remove it, or use --secrets redact|warn (git config ctx.secrets)' });
    }
    if (policy === 'warn') warnings.push(...findings.map((f) => `warning: secret stored as is (ctx.secrets=warn): ${f.rule} in ${what(field)}`));
    else {
      out[field] = redactText(value, findings);
      all.push(...findings);
    }
  }
  return { fields: out, ...(all.length ? { redactions: countByRule(all) } : {}), warnings };
}

/** The secret policy applied to every string of a JSON value (a state value): keys and strings alike. */
export function screenValue<T>(value: T, policy: SecretPolicy, what: string): { value: T; redactions?: Record<string, number>; warnings: string[] } {
  let redactions: Record<string, number> | undefined;
  const warnings: string[] = [];
  const screen = (text: string) => {
    const r = screenFields({ [what]: text }, policy);
    redactions = addCounts(redactions, r.redactions);
    warnings.push(...r.warnings);
    return r.fields[what]!;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return screen(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [screen(k), walk(x)]));
    return v;
  };
  const out = walk(value) as T;
  return { value: out, ...(redactions ? { redactions } : {}), warnings };
}

/** Two per-rule counts added up, in rule-id order. */
export function addCounts(a: Record<string, number> | undefined, b: Record<string, number> | undefined): Record<string, number> | undefined {
  if (!a || !b) return a ?? b;
  const sum: Record<string, number> = { ...a };
  for (const [rule, n] of Object.entries(b)) sum[rule] = (sum[rule] ?? 0) + n;
  return Object.fromEntries(Object.keys(sum).sort().map((k) => [k, sum[k]]));
}
