// What the web view draws of a context beyond its messages, found once per context read: each tool
// call's neutral view (asked of the runtime whose format holds it: the page knows no tool names),
// and where a compaction or a clear sits in the conversation (the commit types say, not the text).
import { partMessages, readParts, type ContextPart, type ContextRead } from '../api/read/context-reader.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import type { ToolReader } from '../api/search/effects.js';
import type { ToolOutput, ToolView } from '../api/capture/runtime.js';
import type { OutputReader } from '../api/read/tool-outputs.js';
import type { Block, NeutralMessage, ToolCallBlock, ToolResultBlock } from '../core/neutral.js';
import { fullId } from '../core/ids.js';
import { argEntries, argsView } from '../core/tool-args.js';
import type { Divider, SubagentRun } from '../output/records.js';

/** A tool call as the web view sends it: with its view when its runtime has one, and the subagent run an agent call started when it is on a branch of its own (subagents.ts). */
export type ViewedCall = ToolCallBlock & { view?: ToolView; run?: SubagentRun };
/** A message as the web view sends it: a compaction's summary, or the first message after a clear, says so. */
export type ViewedMessage = NeutralMessage & { divider?: Divider };

/** A tool result as the web view sends it: with the output its runtime unwraps from it, when it wraps it. */
export type ViewedResult = ToolResultBlock & { output?: ToolOutput };

/** The run's messages with each tool call's view (every call has one), and each result's unwrapped output, attached. */
export function withViews(messages: readonly NeutralMessage[], format: string, tools: ToolReader, outputs?: OutputReader): NeutralMessage[] {
  const unwrap = outputs?.(format);
  const calls = new Map<string, ToolCallBlock>();
  const viewed = (b: Block): Block => {
    if (b.type === 'tool_call') {
      if (unwrap) calls.set(b.id, b);
      return { ...b, view: readable(tools.view(format, b), b.input) } as ViewedCall;
    }
    const call = b.type === 'tool_result' && unwrap ? calls.get(b.call_id) : undefined;
    if (b.type !== 'tool_result' || !call) return b;
    const text = typeof b.content === 'string' ? b.content : b.content.length === 1 && b.content[0].type === 'text' ? b.content[0].text : null;
    const output = text === null ? undefined : unwrap!(call, text);
    return output === undefined ? b : ({ ...b, output } as ViewedResult);
  };
  return messages.map((m) => (m.content.some((b) => b.type === 'tool_call' || (unwrap && b.type === 'tool_result')) ? { ...m, content: m.content.map(viewed) } : m));
}

/** A call's view for the page: its runtime's, with the arguments for a one-line view's detail; the generic `key: value` form when its runtime has none. */
function readable(view: ToolView | undefined, input: unknown): ToolView {
  if (view === undefined) return argsView(input);
  return view.kind === 'brief' && view.markdown === undefined ? { ...view, args: argEntries(input) } : view;
}

const key = (m: NeutralMessage) => `${m.role}\0${JSON.stringify(m.content)}`;

/** A synthetic compaction the walk passed over, by the part after it: its divider, and the summary a ctx compact holds (none for a clear). */
export interface Passed {
  divider: Divider;
  summary?: NeutralMessage;
}

/**
 * Marks, in a run's messages, each compaction's summary (the first message its commit holds, read
 * alone) and the first message after a clear (a compaction that holds none). A ctx compact the walk
 * passed over (`passed`, by the part after it) puts its summary back before that part's first
 * message, drawn as a compaction's is. Only the compaction commits and the part after a clear are
 * read again: a run without one costs nothing.
 */
export function markDividers(run: readonly ContextPart[], messages: ViewedMessage[], passed: ReadonlyMap<ContextPart, Passed> = new Map()): void {
  if (!run.some((p) => p.type === 'compaction' || passed.has(p))) return;
  let from = 0;
  let waiting: Passed | null = null;
  const mark = (first: NeutralMessage, { divider, summary }: Passed) => {
    const k = key(first);
    const at = messages.findIndex((m, i) => i >= from && key(m) === k);
    if (at < 0) return;
    if (summary) messages.splice(at, 0, { ...summary, divider });
    else messages[at] = { ...messages[at], divider };
    from = at + (summary ? 2 : 1);
  };
  for (const p of run) {
    waiting = passed.get(p) ?? waiting;
    if (p.type !== 'compaction' && waiting === null) continue;
    const own = partMessages(p);
    if (p.type !== 'compaction') {
      if (own.length) mark(own[0], waiting!), (waiting = null);
    } else if (own.length) {
      mark(own[0], { divider: { kind: 'compaction', commit: fullId(p.oid), summary: true } });
      waiting = null;
    } else waiting = { divider: { kind: 'clear', commit: fullId(p.oid), summary: false } };
  }
}

/**
 * What a walk passed over (`--stop root` reads through a ctx clear or ctx compact), by the part
 * after each: a clear when it holds no message, else a compaction with its summary (the first
 * message it holds).
 */
export async function passedDividers(repo: RepoContext, parts: readonly ContextPart[], passed: ContextRead['passed']): Promise<Map<ContextPart, Passed>> {
  const out = new Map<ContextPart, Passed>();
  const later = passed.filter((p) => p.before < parts.length);
  if (later.length === 0) return out;
  const read = await readParts(repo, later.map((p) => p.commit));
  later.forEach((p, i) => {
    const commit = fullId(p.commit.oid);
    let summary: NeutralMessage | undefined;
    try {
      summary = partMessages(read[i])[0];
    } catch {
      // a format this build cannot read: still a compaction, its summary on its own page
      out.set(parts[p.before], { divider: { kind: 'compaction', commit, summary: false } });
      return;
    }
    out.set(parts[p.before], summary ? { divider: { kind: 'compaction', commit, summary: true }, summary } : { divider: { kind: 'clear', commit, summary: false } });
  });
  return out;
}
