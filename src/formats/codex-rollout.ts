// codex-rollout-v1: Codex CLI rollout JSONL, bytes exactly as the runtime wrote them. Two line shapes:
// `{timestamp, type, payload}` envelopes (session_meta, response_item, event_msg, turn_context,
// compacted; Codex 0.3x on) and, before them, bare response items after a `{id, timestamp, …}` header.
import { parseObjectLines } from './jsonl.js';
import { concatBytes, type StorageFormat } from './format.js';
import { compact, isRecord, parseArguments, str, type Block, type NeutralMessage, type Role } from '../core/neutral.js';

// User-role messages Codex writes itself: the environment, AGENTS.md / user instructions, notices.
export const INJECTED = /^\s*(<environment_context>|<user_instructions>|<INSTRUCTIONS>|# AGENTS\.md instructions|<turn_aborted>|<subagent_notification>)/;

/** The Responses-API item a line carries: an envelope's `response_item` payload, or a bare item. */
export function rolloutItem(line: unknown): Record<string, unknown> | undefined {
  if (line === null || typeof line !== 'object' || Array.isArray(line)) return undefined;
  const l = line as Record<string, unknown>;
  if (l.type === 'response_item') return l.payload !== null && typeof l.payload === 'object' ? (l.payload as Record<string, unknown>) : undefined;
  if ('payload' in l) return undefined;
  return l;
}

/** A `message` item (user, assistant, developer, system). */
export function rolloutMessage(line: unknown): { role: string; content: unknown } | undefined {
  const item = rolloutItem(line);
  if (item?.type !== 'message' || typeof item.role !== 'string') return undefined;
  return { role: item.role, content: item.content };
}

/** The texts of a message's content blocks (input_text, output_text, text). */
export function messageTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b) => (typeof (b as { text?: unknown })?.text === 'string' ? [(b as { text: string }).text] : []));
}

function textBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b): Block[] => {
    if (!isRecord(b)) return [];
    if (typeof b.text === 'string') return [{ type: 'text', text: b.text }];
    if (b.type === 'input_image' && typeof b.image_url === 'string') return [{ type: 'image', url: b.image_url }];
    return [];
  });
}

/** A reasoning item's readable text: its content, else its summary; encrypted-only reasoning has none. */
function reasoningText(item: Record<string, unknown>): string {
  const texts = (v: unknown) => (Array.isArray(v) ? v.flatMap((b) => (isRecord(b) && typeof b.text === 'string' ? [b.text] : [])) : []);
  const content = texts(item.content);
  return (content.length ? content : texts(item.summary)).join('\n\n');
}

function outputResult(callId: string, output: unknown): Block {
  if (isRecord(output)) return compact({ type: 'tool_result' as const, call_id: callId, content: String(output.content ?? ''), is_error: output.success === false ? true : undefined });
  return { type: 'tool_result', call_id: callId, content: typeof output === 'string' ? output : JSON.stringify(output ?? '') };
}

/** One item → [role, blocks]: messages, reasoning, tool calls (function, custom, local shell) and their outputs. */
function itemBlocks(item: Record<string, unknown>): [Role, Block[]] | undefined {
  const callId = String(item.call_id ?? item.id ?? '');
  switch (item.type) {
    case 'message': {
      const role: Role = item.role === 'assistant' ? 'assistant' : item.role === 'user' ? 'user' : 'system';
      return [role, textBlocks(item.content)];
    }
    case 'reasoning': {
      const text = reasoningText(item);
      return ['assistant', text ? [{ type: 'thinking', text }] : []];
    }
    case 'function_call':
      return ['assistant', [{ type: 'tool_call', id: callId, name: String(item.name ?? ''), input: typeof item.arguments === 'string' ? parseArguments(item.arguments) : (item.arguments ?? {}) }]];
    case 'custom_tool_call':
      return ['assistant', [{ type: 'tool_call', id: callId, name: String(item.name ?? ''), input: item.input ?? '' }]];
    case 'local_shell_call':
      return ['assistant', [{ type: 'tool_call', id: callId, name: 'local_shell', input: item.action ?? {} }]];
    case 'function_call_output':
    case 'custom_tool_call_output':
      return ['tool', [outputResult(callId, item.output)]];
    default:
      return undefined; // ghost snapshots, web search traces: not conversation
  }
}

/**
 * Response items in order; an assistant's reasoning, text and calls up to the next other item form
 * one message (so parallel calls share it), and consecutive outputs one tool message. Envelope
 * timestamps (`{timestamp, type, payload}`) and bare items (older rollouts) are both read.
 */
function toNeutral(entries: readonly unknown[]): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  for (const line of entries) {
    const item = rolloutItem(line);
    const mapped = item && itemBlocks(item);
    if (!mapped || mapped[1].length === 0) continue;
    const [role, content] = mapped;
    const prev = out[out.length - 1];
    if (prev && prev.role === role && (role === 'assistant' || role === 'tool')) {
      prev.content.push(...content);
      continue;
    }
    const timestamp = isRecord(line) && 'payload' in line ? str(line.timestamp) : undefined;
    const id = str(item.id);
    out.push(compact({ role, content, timestamp, ids: id ? { id } : undefined }));
  }
  return out;
}

export const codexRollout: StorageFormat = {
  name: 'codex-rollout-v1',
  ext: 'jsonl',
  parse: parseObjectLines,
  concat: concatBytes,
  concatRule: 'append',
  count: (entries) => entries.filter((e) => rolloutMessage(e) !== undefined).length,
  tokenTexts: (entries) => entries.flatMap((e) => messageTexts(rolloutMessage(e)?.content)),
  toNeutral,
};
