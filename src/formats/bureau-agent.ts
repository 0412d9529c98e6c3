// bureau-agent-v1: a CBOR array of message maps; concatenation decodes, merges and encodes once.
import { createRequire } from 'node:module';
import { BadInputError } from '../errors/index.js';
import { contentTexts, type StorageFormat } from './format.js';
import { ROLES, compact, isRecord, str, type Block, type NeutralMessage, type Role } from '../core/neutral.js';

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
  concatRule: 'merge',
  encode: (entries) => loadCbor().encode(entries),
  binary: true,
  count: (entries) => entries.length,
  tokenTexts: (entries) => entries.flatMap((m) => contentTexts((m as { content?: unknown }).content)),
  mapStrings: (bytes, map) => loadCbor().encode(mapStringsDeep(decodeMessages(bytes), map)),
  toNeutral: (entries) => entries.map((m) => toMessage(m as Record<string, unknown>)),
  fromNeutral: (messages) => loadCbor().encode(messages.map((m) => toMessage(m as unknown as Record<string, unknown>))),
};

// The mapping: a bureau message map is a neutral message, `{role, content, author?, timestamp?, ids?}`,
// its blocks the neutral blocks by the same names. Reading also takes string content (one text
// block), `developer` as system, and Anthropic block names (tool_use, tool_result with tool_use_id).
function toMessage(m: Record<string, unknown>): NeutralMessage {
  const role: Role = ROLES.includes(m.role as Role) ? (m.role as Role) : m.role === 'developer' ? 'system' : 'user';
  const ids = isRecord(m.ids) ? Object.fromEntries(Object.entries(m.ids).filter(([, v]) => typeof v === 'string')) as Record<string, string> : undefined;
  return compact({ role, author: str(m.author), content: toBlocks(m.content), timestamp: str(m.timestamp), ids });
}

function toBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b): Block[] => {
    if (!isRecord(b)) return [];
    switch (b.type) {
      case 'text':
        return [{ type: 'text', text: String(b.text ?? '') }];
      case 'thinking':
        return [compact({ type: 'thinking' as const, text: String(b.text ?? b.thinking ?? ''), signature: str(b.signature) })];
      case 'image': {
        const s = isRecord(b.source) ? b.source : b;
        const data = ArrayBuffer.isView(s.data) ? Buffer.from(s.data.buffer, s.data.byteOffset, s.data.byteLength).toString('base64') : str(s.data);
        return [compact({ type: 'image' as const, media_type: str(s.media_type), data, url: str(s.url) })];
      }
      case 'tool_call':
      case 'tool_use':
        return [{ type: 'tool_call', id: String(b.id ?? ''), name: String(b.name ?? ''), input: b.input ?? {} }];
      case 'tool_result':
        return [compact({ type: 'tool_result' as const, call_id: String(b.call_id ?? b.tool_use_id ?? ''), content: typeof b.content === 'string' ? b.content : toBlocks(b.content), is_error: b.is_error === true ? true : undefined })];
      default:
        return [];
    }
  });
}

function mapStringsDeep(v: unknown, map: (s: string) => string): unknown {
  if (typeof v === 'string') return map(v);
  if (Array.isArray(v)) return v.map((x) => mapStringsDeep(x, map));
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, mapStringsDeep(x, map)]));
  if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && !(v instanceof Date))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStringsDeep(x, map)]));
  return v;
}
