// Structured state in a context commit (DESIGN.md §3, §8): `state/<namespace>.json` blobs, the
// policy and schema beside them, externalized values as their own blobs; and the audit record a
// state write leaves in meta.json (`state`).

export const STATE_DIR = 'state';
export const POLICY_FILE = '.policy.json';
export const SCHEMA_FILE = '.schema.json';
/** `state/.blob-<64 hex>`: an externalized value, named by the BLAKE3 of its bytes */
export const BLOB_PREFIX = '.blob-';
/** what a diff and an audit record call the policy, beside the namespaces */
export const POLICY_KEY = '.policy';

export const NAMESPACE = /^[a-z][a-z0-9_]*$/;
export const KEY = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;
export const STATE_OPS = ['init', 'set', 'delete', 'policy', 'migrate'] as const;
export type StateOp = (typeof STATE_OPS)[number];

/** Top-level keys of one namespace (or agents of the policy) that a write added, removed or changed. */
export interface KeyDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/** meta.json `state`: who wrote what, and the diff per namespace (`.policy` for the policy). */
export interface StateRecord {
  op: StateOp;
  agent: string;
  /** `namespace.key` written, sorted (`.policy.<agent>` for a policy change) */
  keys: string[];
  diff: Record<string, KeyDiff>;
  /** a migration: the schema ids before and after */
  schema?: { from: string; to: string };
}

const strings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === 'string');

/** Problems with a parsed meta.json `state`, as short phrases. */
export function stateRecordProblems(s: unknown): string[] {
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return ['state is not an object'];
  const o = s as Record<string, unknown>;
  const p: string[] = [];
  if (!STATE_OPS.includes(o.op as StateOp)) p.push(`state.op ${JSON.stringify(o.op)} is not one of ${STATE_OPS.join(', ')}`);
  if (typeof o.agent !== 'string' || o.agent === '') p.push('state.agent is not a name');
  if (!strings(o.keys)) p.push('state.keys is not a list of keys');
  const d = o.diff as Record<string, unknown> | null;
  if (!d || typeof d !== 'object' || Array.isArray(d) || Object.values(d).some((k) => !k || typeof k !== 'object' || !['added', 'removed', 'changed'].every((f) => strings((k as Record<string, unknown>)[f]))))
    p.push('state.diff is not {namespace: {added, removed, changed}}');
  if (o.schema !== undefined && (typeof (o.schema as { from?: unknown })?.from !== 'string' || typeof (o.schema as { to?: unknown })?.to !== 'string')) p.push('state.schema is not {from, to}');
  return p;
}
