// LangChain messages (a `messages` channel's value) as neutral messages, for the artifact `ctx log`,
// `ctx grep` and `ctx serve` read; the checkpoint itself keeps the serializer's bytes.
import type { Block, NeutralMessage, Role } from '../../core/neutral.js';

const ROLE: Record<string, Role> = { human: 'user', ai: 'assistant', system: 'system', developer: 'system', tool: 'tool', generic: 'user' };

type Loose = Record<string, unknown>;
const isRecord = (v: unknown): v is Loose => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The message's kind (`human`, `ai`, …): a BaseMessage's getType(), or a plain object's `type`/`role`. */
function kindOf(m: Loose): string {
  const get = (m.getType ?? m._getType) as (() => unknown) | undefined;
  const k = typeof get === 'function' ? get.call(m) : (m.type ?? m.role);
  return typeof k === 'string' ? k : '';
}

function textBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b): Block[] => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' ? [{ type: 'text', text: b.text }] : []));
}

const textOf = (content: unknown) => textBlocks(content).map((b) => (b as { text: string }).text).join('\n');

/** One LangChain message as a neutral one; null for what is not a message. */
export function neutralMessage(m: unknown): NeutralMessage | null {
  if (!isRecord(m)) return null;
  const role = ROLE[kindOf(m)];
  if (!role) return null;
  const ids = typeof m.id === 'string' ? { id: m.id } : undefined;
  if (role === 'tool') return { role, content: [{ type: 'tool_result', call_id: String(m.tool_call_id ?? ''), content: textOf(m.content) }], ...(ids ? { ids } : {}) };
  const content = textBlocks(m.content);
  if (role === 'assistant' && Array.isArray(m.tool_calls))
    for (const c of m.tool_calls) if (isRecord(c)) content.push({ type: 'tool_call', id: String(c.id ?? ''), name: String(c.name ?? ''), input: c.args ?? {} });
  return { role, content, ...(ids ? { ids } : {}) };
}

/** A message's id, for telling where a channel's list grew. */
export const messageId = (m: unknown): string | undefined => (isRecord(m) && typeof m.id === 'string' ? m.id : undefined);
