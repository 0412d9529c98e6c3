// State values: what a user writes, how large ones leave their namespace blob as `$ref`s, and the
// diff of two namespaces by top-level key. Pure: hashing is BLAKE3 (core), reading is the caller's.
import { BadInputError } from '../../errors/index.js';
import { artifactHash } from '../blake3.js';
import { canonicalJson } from '../canonical-json.js';
import type { KeyDiff } from './record.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Namespace = Record<string, Json>;

/** `{"$ref":"blake3:<hex>","size":N}`: a value stored as its own blob (`state/.blob-<hex>`). */
export interface ValueRef {
  $ref: string;
  size: number;
}

const REF_TEXT = /\{"\$ref":"blake3:([0-9a-f]{64})","size":(\d+)\}/g;
const BARE_WORD = /^[A-Za-z_][A-Za-z0-9_.:/@+-]*$/;

/** VALUE as given on the command line: JSON, else a bare word taken as a string. */
export function parseValue(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    const t = text.replace(/\r?\n$/, '');
    if (BARE_WORD.test(t)) return t;
    throw new BadInputError(`VALUE is not JSON (a bare word is a string; quote anything else): ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}`);
  }
}

/** The bytes a namespace is stored as: canonical JSON and a newline. */
export const encodeNamespace = (ns: Namespace) => `${canonicalJson(ns)}\n`;

export const isRef = (v: unknown): v is ValueRef =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as ValueRef).$ref === 'string' && Object.keys(v).length === 2 && typeof (v as ValueRef).size === 'number';

/** The first `$ref` key in a value a user wrote: refused, a `$ref` is ctx's own. */
export function refKeyPath(value: unknown, path: string): string | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = refKeyPath(value[i], `${path}[${i}]`);
      if (p) return p;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref') return `${path}.$ref`;
      const p = refKeyPath(v, `${path}.${k}`);
      if (p) return p;
    }
  }
  return null;
}

/** The externalized values a namespace blob refers to: BLAKE3 hex → size. */
export function refsIn(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(REF_TEXT)) out.set(m[1], Number(m[2]));
  return out;
}

/**
 * A key's value as stored: an artifact's `content` over `maxInlineArtifact` and then the value
 * itself over `externalizeAbove` become `$ref`s; `blobs` are the bytes to store, by BLAKE3 hex.
 */
export async function externalize(key: string, value: Json, limits: { externalizeAbove: number; maxInlineArtifact: number }): Promise<{ value: Json; blobs: Map<string, Uint8Array> }> {
  const blobs = new Map<string, Uint8Array>();
  const out = async (v: Json): Promise<Json> => {
    const bytes = Buffer.from(canonicalJson(v));
    const ref = await artifactHash(bytes);
    blobs.set(ref.slice('blake3:'.length), bytes);
    return { $ref: ref, size: bytes.length };
  };
  let stored = value;
  if (key === 'artifacts' && Array.isArray(value)) {
    stored = [];
    for (const a of value) {
      const big = a !== null && typeof a === 'object' && !Array.isArray(a) && 'content' in a && Buffer.byteLength(canonicalJson(a.content)) > limits.maxInlineArtifact;
      stored.push(big ? { ...a, content: await out((a as Namespace).content) } : a);
    }
  }
  if (Buffer.byteLength(canonicalJson(stored)) > limits.externalizeAbove) stored = await out(stored);
  return { value: stored, blobs };
}

/** A stored value with every `$ref` replaced by what it refers to (read as parsed JSON). */
export function resolveRefs(value: Json, read: (hex: string) => Json): Json {
  if (isRef(value)) return resolveRefs(read(value.$ref.slice('blake3:'.length)), read);
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, read));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, read)]));
  return value;
}

/** Keys added, removed and changed from `before` to `after` (values compared as canonical JSON). */
export function keyDiff(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): KeyDiff {
  const a = before ?? {};
  const b = after ?? {};
  const d: KeyDiff = { added: [], removed: [], changed: [] };
  for (const k of Object.keys(b).sort()) {
    if (!Object.hasOwn(a, k)) d.added.push(k);
    else if (canonicalJson(a[k]) !== canonicalJson(b[k])) d.changed.push(k);
  }
  for (const k of Object.keys(a).sort()) if (!Object.hasOwn(b, k)) d.removed.push(k);
  return d;
}

export const emptyDiff = (d: KeyDiff) => d.added.length + d.removed.length + d.changed.length === 0;
