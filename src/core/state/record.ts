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
/** The names ctx writes in `state/`: namespaces, the policy, the schema, externalized values (all mode 100644). */
export const STATE_ENTRY = /^(?:[a-z][a-z0-9_]*\.json|\.policy\.json|\.schema\.json|\.blob-[0-9a-f]{64})$/;
export const KEY = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;
export type { KeyDiff, StateRecord } from '../meta.js';
