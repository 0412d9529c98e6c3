// What the web view draws of a context beyond its messages, found once per context read: each tool
// call's neutral view (asked of the runtime whose format holds it: the page knows no tool names),
// and where a compaction or a clear sits in the conversation (the commit types say, not the text).
import { partMessages, type ContextPart } from '../api/read/context-reader.js';
import type { ToolReader } from '../api/search/effects.js';
import type { ToolView } from '../api/capture/runtime.js';
import type { Block, NeutralMessage, ToolCallBlock } from '../core/neutral.js';
import { fullId } from '../core/ids.js';
import type { Divider } from '../output/records.js';

/** A tool call as the web view sends it: with its view when its runtime has one. */
export type ViewedCall = ToolCallBlock & { view?: ToolView };
/** A message as the web view sends it: a compaction's summary, or the first message after a clear, says so. */
export type ViewedMessage = NeutralMessage & { divider?: Divider };

/** The run's messages with each tool call's view attached (a new object only where something is). */
export function withViews(messages: readonly NeutralMessage[], format: string, tools: ToolReader): NeutralMessage[] {
  return messages.map((m) => {
    if (!m.content.some((b) => b.type === 'tool_call')) return m;
    const content = m.content.map((b): Block => {
      if (b.type !== 'tool_call') return b;
      const view = tools.view(format, b);
      return view === undefined ? b : ({ ...b, view } as ViewedCall);
    });
    return { ...m, content };
  });
}

const key = (m: NeutralMessage) => `${m.role}\0${JSON.stringify(m.content)}`;

/**
 * Marks, in a run's messages, each compaction's summary (the first message its commit holds, read
 * alone) and the first message after a clear (a compaction that holds none). Only the compaction
 * commits and the commit after a clear are read again: a run without one costs nothing.
 */
export function markDividers(run: readonly ContextPart[], messages: ViewedMessage[]): void {
  if (!run.some((p) => p.type === 'compaction')) return;
  let from = 0;
  let cleared: ContextPart | null = null;
  const mark = (first: NeutralMessage, divider: Divider) => {
    const k = key(first);
    const at = messages.findIndex((m, i) => i >= from && key(m) === k);
    if (at < 0) return;
    messages[at] = { ...messages[at], divider };
    from = at + 1;
  };
  for (const p of run) {
    if (p.type !== 'compaction' && cleared === null) continue;
    const own = partMessages(p);
    if (cleared !== null && own.length) {
      mark(own[0], { kind: 'clear', commit: fullId(cleared.oid), summary: false });
      cleared = null;
    }
    if (p.type !== 'compaction') continue;
    if (own.length) mark(own[0], { kind: 'compaction', commit: fullId(p.oid), summary: true });
    else cleared = p;
  }
}
