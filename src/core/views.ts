// Views over neutral messages (DESIGN.md §5): derived at materialize time, never stored. Pure.
import { resultText, type Block, type NeutralMessage } from './neutral.js';

export type View = 'reasoning' | 'conversation';
export const VIEWS: readonly View[] = ['reasoning', 'conversation'];

/** User ↔ assistant outcomes: only the text of user and assistant messages; messages left empty are dropped. */
export function conversationView(messages: readonly NeutralMessage[]): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const content = m.content.filter((b) => b.type === 'text');
    if (content.length) out.push({ ...m, content });
  }
  return out;
}

export interface MaskOptions {
  /** results in the last `keepTurns` turns stay as they are (a turn starts at each user message with text) */
  keepTurns: number;
  /** indexes of messages kept whole (from pinned commits) */
  pinned?: ReadonlySet<number>;
}

export interface Masked {
  messages: NeutralMessage[];
  /** tool results whose content was replaced */
  masked: number;
}

export const maskPlaceholder = (chars: number) => `[tool output hidden: ${chars} chars]`;

/** Where the last `keepTurns` turns start: results before this index are masked. */
export function keptFrom(messages: readonly NeutralMessage[], keepTurns: number): number {
  if (keepTurns <= 0) return messages.length;
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user' && m.content.some((b) => b.type === 'text') && ++seen === keepTurns) return i;
  }
  return 0;
}

/**
 * Tool results older than the last N turns get a placeholder for content; the call/result pair,
 * its ids, every message and every block stay, so the context is still well-formed for a model.
 */
export function maskToolOutputs(messages: readonly NeutralMessage[], opts: MaskOptions): Masked {
  const from = keptFrom(messages, opts.keepTurns);
  const pinned = opts.pinned ?? new Set<number>();
  let masked = 0;
  const out = messages.map((m, i) => {
    if (i >= from || pinned.has(i) || !m.content.some((b) => b.type === 'tool_result')) return m;
    const content = m.content.map((b): Block => {
      if (b.type !== 'tool_result') return b;
      masked++;
      return { ...b, content: maskPlaceholder(resultText(b.content).length) };
    });
    return { ...m, content };
  });
  return { messages: out, masked };
}
