// bureau-agent-v1: a CBOR array of message maps; concatenation decodes, merges and encodes once.
import { createRequire } from 'node:module';
import { BadInputError } from '../errors/index.js';
import { contentChars, tokensFromChars, type StorageFormat } from './format.js';

// cbor-x is loaded on first use: commands on other formats never pay for it
type Cbor = typeof import('cbor-x');
let cbor: Cbor | null = null;
const loadCbor = (): Cbor => (cbor ??= createRequire(import.meta.url)('cbor-x') as Cbor);

function decodeMessages(bytes: Uint8Array): Record<string, unknown>[] {
  let value: unknown;
  try {
    value = loadCbor().decode(bytes);
  } catch (e) {
    throw new BadInputError(`not CBOR: ${(e as Error).message}`);
  }
  if (!Array.isArray(value)) throw new BadInputError('CBOR artifact is not an array of messages');
  value.forEach((m, i) => {
    if (m === null || typeof m !== 'object' || Array.isArray(m) || m instanceof Map || typeof (m as { role?: unknown }).role !== 'string')
      throw new BadInputError(`message ${i} is not a map with a string role`);
  });
  return value as Record<string, unknown>[];
}

export const bureauAgent: StorageFormat = {
  name: 'bureau-agent-v1',
  ext: 'cbor',
  parse: decodeMessages,
  concat: (parts) => loadCbor().encode(parts.flatMap(decodeMessages)),
  count: (entries) => entries.length,
  estimateTokens: (entries) => tokensFromChars(entries.reduce((n: number, m) => n + contentChars((m as { content?: unknown }).content), 0)),
  mapStrings: (bytes, map) => loadCbor().encode(mapStringsDeep(decodeMessages(bytes), map)),
};

function mapStringsDeep(v: unknown, map: (s: string) => string): unknown {
  if (typeof v === 'string') return map(v);
  if (Array.isArray(v)) return v.map((x) => mapStringsDeep(x, map));
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, mapStringsDeep(x, map)]));
  if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && !(v instanceof Date))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStringsDeep(x, map)]));
  return v;
}
