// codex-rollout-v1: Codex CLI rollout JSONL, bytes exactly as the runtime wrote them. Two line shapes:
// `{timestamp, type, payload}` envelopes (session_meta, response_item, event_msg, turn_context,
// compacted; Codex 0.3x on) and, before them, bare response items after a `{id, timestamp, …}` header.
import { eachObjectLine, parseObjectLines } from './jsonl.js';
import { concatBytes, timestampField, type StorageFormat } from './format.js';
import { writeRollout } from './codex-rollout-write.js';
import { codexUsage } from './codex-usage.js';
import { compact, isRecord, parseArguments, str, type Block, type NeutralMessage, type Origin, type Role } from '../core/neutral.js';

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
 * timestamps (`{timestamp, type, payload}`) and bare items (older rollouts) are both read. The
 * thread's system prompt (`session_meta.base_instructions`) is a system message, and a prompt
 * recorded only as an `event_msg user_message` a user message.
 */
function toNeutral(entries: readonly unknown[]): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  const covered = coveredPromptEvents(entries);
  entries.forEach((line, i) => {
    const timestamp = isRecord(line) && 'payload' in line ? str(line.timestamp) : undefined;
    const extra = extraMessage(line, covered.has(i));
    if (extra) return void out.push(compact({ ...extra, timestamp }));
    const item = rolloutItem(line);
    const mapped = item && itemBlocks(item);
    if (!mapped || mapped[1].length === 0) return;
    const [role, content] = mapped;
    const prev = out[out.length - 1];
    if (prev && prev.role === role && (role === 'assistant' || role === 'tool')) return void prev.content.push(...content);
    const id = str(item.id);
    for (const [origin, blocks] of originRuns(item, content)) out.push(compact({ role, content: blocks, timestamp, ids: id ? { id } : undefined, origin }));
  });
  return out;
}

const PREAMBLE: Origin = { runtime: 'codex', kind: 'preamble' };
const INSTRUCTIONS: Origin = { runtime: 'codex', kind: 'instructions' };

/**
 * Who put a message's blocks there, in runs of one origin: developer text is Codex's own context
 * (`<permissions instructions>`, `<skills_instructions>` …) unless untagged (the user's
 * developer_instructions), `<environment_context>` its own too, AGENTS.md and user instructions the user's.
 */
function originRuns(item: Record<string, unknown>, content: Block[]): [Origin | undefined, Block[]][] {
  if (item.type !== 'message' || (item.role !== 'developer' && item.role !== 'system' && item.role !== 'user')) return [[undefined, content]];
  const runs: [Origin | undefined, Block[]][] = [];
  for (const b of content) {
    const text = b.type === 'text' ? b.text : undefined;
    const origin = text === undefined ? runs.at(-1)?.[0] : item.role !== 'user' ? (/^\s*<[A-Za-z_ ]+>/.test(text) ? PREAMBLE : INSTRUCTIONS) : /^\s*<environment_context>/.test(text) ? PREAMBLE : /^\s*(<user_instructions>|<INSTRUCTIONS>|# AGENTS\.md instructions)/.test(text) ? INSTRUCTIONS : undefined;
    if (runs.length && runs.at(-1)![0] === origin) runs.at(-1)![1].push(b);
    else runs.push([origin, [b]]);
  }
  return runs;
}

/** The lines that are messages outside response items: the system prompt, a prompt seen only as an event. */
function extraMessage(line: unknown, covered: boolean): NeutralMessage | undefined {
  if (!isRecord(line) || !isRecord(line.payload)) return undefined;
  const p = line.payload;
  if (line.type === 'session_meta') {
    const text = baseInstructions(p.base_instructions);
    return text ? { role: 'system', content: [{ type: 'text', text }], origin: PREAMBLE } : undefined;
  }
  const text = promptEventText(line);
  if (text === undefined || covered) return undefined;
  const images = Array.isArray(p.images) ? p.images.filter((u): u is string => typeof u === 'string').map((url): Block => ({ type: 'image', url })) : [];
  return { role: 'user', content: [{ type: 'text', text }, ...images] };
}

/** `base_instructions`: `{text}` (Codex 0.4x on) or a string. */
function baseInstructions(v: unknown): string | undefined {
  if (typeof v === 'string') return v || undefined;
  return isRecord(v) && typeof v.text === 'string' && v.text ? v.text : undefined;
}

function promptEventText(line: unknown): string | undefined {
  if (!isRecord(line) || line.type !== 'event_msg' || !isRecord(line.payload) || line.payload.type !== 'user_message') return undefined;
  return typeof line.payload.message === 'string' ? line.payload.message : undefined;
}

/** A typed prompt's text as a response item (not the environment or instructions Codex injects). */
function promptItemText(line: unknown): string | undefined {
  const m = rolloutMessage(line);
  if (m?.role !== 'user') return undefined;
  const text = messageTexts(m.content).join('\n');
  return INJECTED.test(text) ? undefined : text;
}

/**
 * The `user_message` events whose prompt is also a response item: Codex writes the event next to
 * the item (before or after it, nothing else typed between), so each pairs with its neighbour.
 */
function coveredPromptEvents(entries: readonly unknown[]): Set<number> {
  const covered = new Set<number>();
  let item: string | undefined; // the last prompt item not yet paired
  let event: { at: number; text: string } | undefined; // the last event not yet paired
  entries.forEach((line, i) => {
    const typed = promptItemText(line);
    const said = typed === undefined ? promptEventText(line) : undefined;
    if (typed !== undefined && event?.text === typed) covered.add(event.at);
    else if (said !== undefined && item === said) covered.add(i);
    else {
      if (typed !== undefined) [item, event] = [typed, undefined];
      if (said !== undefined) [item, event] = [undefined, { at: i, text: said }];
      return;
    }
    [item, event] = [undefined, undefined];
  });
  return covered;
}

export const codexRollout: StorageFormat = {
  name: 'codex-rollout-v1',
  ext: 'jsonl',
  runtime: 'codex',
  usage: codexUsage,
  parse: parseObjectLines,
  eachEntry: eachObjectLine,
  concat: concatBytes,
  concatRule: 'append',
  count: (entries) => entries.filter((e) => rolloutMessage(e) !== undefined).length,
  tokenTexts: (entries) => entries.flatMap((e) => messageTexts(rolloutMessage(e)?.content)),
  toNeutral,
  fromNeutral: writeRollout,
  entryTime: timestampField,
};
