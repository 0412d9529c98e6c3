// The neutral message model (DESIGN.md §4): what every format translates through. Plain data, JSON-safe.
export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface TextBlock {
  type: 'text';
  text: string;
}
export interface ThinkingBlock {
  type: 'thinking';
  text: string;
  /** the runtime's signature over the thinking, when it keeps one (Claude) */
  signature?: string;
}
export interface ImageBlock {
  type: 'image';
  media_type?: string;
  /** base64 */
  data?: string;
  url?: string;
}
export interface ToolCallBlock {
  type: 'tool_call';
  id: string;
  name: string;
  /** the arguments: parsed JSON where the source held JSON, else the source's string */
  input: unknown;
}
export interface ToolResultBlock {
  type: 'tool_result';
  call_id: string;
  content: Block[] | string;
  is_error?: boolean;
}
export type Block = TextBlock | ThinkingBlock | ImageBlock | ToolCallBlock | ToolResultBlock;

export interface NeutralMessage {
  role: Role;
  /** who spoke when the role does not say: `subagent` for Claude Code sidechains */
  author?: string;
  content: Block[];
  timestamp?: string;
  /** the source's own ids (uuid, message id, item id), by the source's field names */
  ids?: Record<string, string>;
  /** what put the message there when neither the user nor the model wrote it in the conversation */
  origin?: Origin;
}

/**
 * A message the source runtime added on its own (docs/format.md, "Runtime preamble"): `preamble` is
 * the runtime's own context (its system prompt, permissions, skills, environment, session context),
 * stale anywhere else; `instructions` are user-written instructions it loaded (AGENTS.md), which
 * any runtime's model needs. `runtime` names the runtime, as the formats of its sessions do.
 */
export interface Origin {
  runtime: string;
  kind: 'preamble' | 'instructions';
}

export const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];
/** What a rendering for people calls each role. */
export const ROLE_TITLES = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool results' } as const;

export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A tool's arguments string as JSON when it parses, else the string itself. */
export function parseArguments(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** The text a tool result carries: its string, or its text blocks joined by newlines (images named). */
export function resultText(content: Block[] | string): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' || b.type === 'thinking' ? b.text : b.type === 'image' ? `[image${b.media_type ? ` ${b.media_type}` : ''}]` : JSON.stringify(b))).join('\n');
}

/**
 * The messages a translation into `runtime`'s sessions carries: another runtime's preamble is left
 * out (the target adds its own system prompt and environment); instructions another runtime held in
 * its system role become a user message saying where they come from; the rest stays as it is.
 */
export function forRuntime(messages: readonly NeutralMessage[], runtime: string): NeutralMessage[] {
  return messages.flatMap((m): NeutralMessage[] => {
    if (m.origin === undefined || m.origin.runtime === runtime) return [m];
    if (m.origin.kind === 'preamble') return [];
    if (m.role !== 'system') return [m];
    const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n');
    return [{ ...m, role: 'user', content: [{ type: 'text', text: carriedInstructions(m.origin.runtime, text) }] }];
  });
}

/** System-role instructions of another runtime, as the user message that carries them over. */
export const carriedInstructions = (runtime: string, text: string) => `Instructions carried over from ${runtime}:\n\n${text}`;

/** Drops undefined fields, so messages compare deep-equal after a trip through CBOR or JSON. */
export function compact<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o as { [K in keyof T]: Exclude<T[K], undefined> };
}
