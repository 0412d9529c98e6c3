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
/** what a state write did (meta.json `state.op`) */
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
