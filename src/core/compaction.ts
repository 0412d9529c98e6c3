// The compaction pipeline (DESIGN.md §8): stages over neutral messages, cheap first, then normalize.
// Pure: the summarizer (an external command in the CLI) is injected.
import { resultText, type Block, type NeutralMessage, type ToolCallBlock, type ToolResultBlock } from './neutral.js';
import { charsPerToken, type TokenCounter } from './tokens.js';

export const STAGES = ['dedupe', 'prune-tool-outputs', 'summarize', 'truncate'] as const;
export type Stage = (typeof STAGES)[number];

export interface CompactionOptions {
  stages: readonly Stage[];
  /** the latest turns kept as they are (default 2) */
  keepTurns?: number;
  /** target tokens: stages after the first that gets under it are skipped; truncate needs it */
  budget?: number;
  /** tool results longer than this (characters) are pruned to a head and tail excerpt (default 4000) */
  pruneChars?: number;
  /** characters kept at each end of a pruned result (default 800) */
  excerptChars?: number;
  /** indexes of messages that must be kept whole (from pinned commits) */
  pinned?: ReadonlySet<number>;
  /** the summary of the messages given; default: the extractive summary */
  summarizer?: (messages: NeutralMessage[]) => Promise<string>;
  /** how tokens are counted (the budget, the report); default chars/4 */
  counter?: TokenCounter;
}

export interface StageReport {
  stage: Stage | 'normalize';
  /** messages and tokens after the stage */
  messages: number;
  tokens: number;
  /** results replaced (dedupe, prune), messages summarized or dropped (summarize, truncate); skipped: already under budget */
  changed: number;
  skipped?: boolean;
}

export interface CompactionResult {
  messages: NeutralMessage[];
  /** for each message, its index in the input; -1 for one the pipeline made (the summary, a result for an unanswered call) */
  origins: number[];
  /** index of the summary message in `messages`, -1 when nothing was summarized */
  summaryAt: number;
  tokensBefore: number;
  report: StageReport[];
}

/** A message with where it came from, so protection survives the stages. */
interface Item {
  msg: NeutralMessage;
  /** index in the input; -1 for messages the pipeline made */
  at: number;
  keep: boolean;
  /** the summary message */
  summary?: boolean;
}

export const SUMMARY_HEADER = '[ctx compact] Summary of the earlier conversation';

export function parseStages(list: string): Stage[] {
  const out = list.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = out.find((s) => !(STAGES as readonly string[]).includes(s));
  if (bad !== undefined) throw new RangeError(`unknown compaction stage '${bad}' (${STAGES.join(', ')})`);
  return out as Stage[];
}

/** What a message's tokens are counted over: texts, thinking, tool names and inputs, result texts. */
export function messageTexts(m: NeutralMessage): string[] {
  return m.content.flatMap((b): string[] => {
    switch (b.type) {
      case 'text':
      case 'thinking':
        return [b.text];
      case 'tool_call':
        return [b.name, JSON.stringify(b.input ?? {})];
      case 'tool_result':
        return [resultText(b.content)];
      default:
        return [];
    }
  });
}

/** Tokens of many messages, each counted once (stages recount after every change; a tokenizer is not free). */
export function messageTokens(counter: TokenCounter = charsPerToken): (messages: readonly NeutralMessage[]) => number {
  const memo = new WeakMap<NeutralMessage, number>();
  return (messages) =>
    messages.reduce((n, m) => {
      let t = memo.get(m);
      if (t === undefined) memo.set(m, (t = counter.count(messageTexts(m))));
      return n + t;
    }, 0);
}

const calls = (m: NeutralMessage) => m.content.filter((b): b is ToolCallBlock => b.type === 'tool_call');
const results = (m: NeutralMessage) => m.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
/** A user message that starts a turn: one a person wrote, not tool results. */
const isPrompt = (m: NeutralMessage) => m.role === 'user' && m.content.some((b) => b.type === 'text' || b.type === 'image');

/** Index where each of the last `n` turns starts (the earliest of them first), or messages.length. */
export function lastTurnsStart(messages: readonly NeutralMessage[], n: number): number {
  if (n <= 0) return messages.length;
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) if (isPrompt(messages[i]) && ++seen === n) return i;
  return 0;
}

/**
 * What must survive every stage: system messages, the first task, the last turns, pinned messages,
 * and tool calls that failed or have no result (with the messages holding their results).
 */
export function protectedIndexes(messages: readonly NeutralMessage[], keepTurns: number, pinned: ReadonlySet<number> = new Set()): Set<number> {
  const keep = new Set<number>(pinned);
  messages.forEach((m, i) => m.role === 'system' && keep.add(i));
  const first = messages.findIndex(isPrompt);
  if (first >= 0) keep.add(first);
  for (let i = lastTurnsStart(messages, keepTurns); i < messages.length; i++) keep.add(i);
  const resultAt = new Map<string, { at: number; error: boolean }>();
  messages.forEach((m, i) => results(m).forEach((r) => resultAt.set(r.call_id, { at: i, error: r.is_error === true })));
  messages.forEach((m, i) =>
    calls(m).forEach((c) => {
      const r = resultAt.get(c.id);
      if (r === undefined) keep.add(i);
      else if (r.error) keep.add(i).add(r.at);
    }),
  );
  return keep;
}

/**
 * Groups of message indexes that stand or fall together: a message with tool calls and the messages
 * holding their results. Dropping or keeping by group keeps every call with its result.
 */
export function pairGroups(messages: readonly NeutralMessage[]): number[][] {
  const parent = messages.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const callAt = new Map<string, number>();
  messages.forEach((m, i) => calls(m).forEach((c) => callAt.set(c.id, i)));
  messages.forEach((m, i) =>
    results(m).forEach((r) => {
      const c = callAt.get(r.call_id);
      if (c !== undefined) parent[find(i)] = find(c);
    }),
  );
  const groups = new Map<number, number[]>();
  messages.forEach((_, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), i]));
  return [...groups.values()].sort((a, b) => a[0] - b[0]);
}

/** Widens `keep` to whole pair groups. */
function closeOverPairs(messages: readonly NeutralMessage[], keep: Set<number>): Set<number> {
  for (const g of pairGroups(messages)) if (g.some((i) => keep.has(i))) g.forEach((i) => keep.add(i));
  return keep;
}

export async function compactMessages(input: readonly NeutralMessage[], opts: CompactionOptions): Promise<CompactionResult> {
  const keepTurns = opts.keepTurns ?? 2;
  const keep = closeOverPairs(input, protectedIndexes(input, keepTurns, opts.pinned));
  let items: Item[] = input.map((msg, at) => ({ msg, at, keep: keep.has(at) }));
  const count = messageTokens(opts.counter);
  const tokensBefore = count(input);
  const report: StageReport[] = [];
  const tokens = () => count(items.map((i) => i.msg));
  const under = () => opts.budget !== undefined && tokens() <= opts.budget;
  for (const stage of opts.stages) {
    if (under() || (stage === 'truncate' && opts.budget === undefined)) {
      report.push({ stage, messages: items.length, tokens: tokens(), changed: 0, skipped: true });
      continue;
    }
    let changed = 0;
    if (stage === 'dedupe') changed = dedupe(items);
    else if (stage === 'prune-tool-outputs') changed = prune(items, opts.pruneChars ?? 4000, opts.excerptChars ?? 800);
    else if (stage === 'summarize') [items, changed] = await summarize(items, opts.summarizer ?? ((m) => Promise.resolve(extractiveSummary(m, input))));
    else [items, changed] = truncate(items, opts.budget!, count);
    report.push({ stage, messages: items.length, tokens: tokens(), changed });
  }
  const normal = normalizeItems(items);
  const messages = normal.map((i) => i.msg);
  report.push({ stage: 'normalize', messages: messages.length, tokens: count(messages), changed: Math.abs(items.length - messages.length) });
  const summaryAt = normal.findIndex((i) => i.summary === true);
  return { messages, origins: normal.map((i) => i.at), summaryAt, tokensBefore, report };
}

/** The same tool called with the same input and answered the same: the later result points to the earlier. */
function dedupe(items: Item[]): number {
  const callKey = new Map<string, string>();
  for (const { msg } of items) for (const c of calls(msg)) callKey.set(c.id, `${c.name}\0${stableJson(c.input)}`);
  const first = new Map<string, { id: string; text: string }>();
  let n = 0;
  for (const item of items)
    item.msg = mapResults(item.msg, (r) => {
      const key = callKey.get(r.call_id);
      if (key === undefined || r.is_error) return r;
      const text = resultText(r.content);
      const seen = first.get(key);
      if (seen === undefined || item.keep) {
        if (seen === undefined) first.set(key, { id: r.call_id, text });
        return r;
      }
      if (seen.text !== text) {
        first.set(key, { id: r.call_id, text });
        return r;
      }
      n++;
      return { ...r, content: `[ctx compact: same result as tool call ${seen.id}]` };
    });
  return n;
}

/** Large results outside the kept messages: a head and tail excerpt around a placeholder. */
function prune(items: Item[], limit: number, excerpt: number): number {
  let n = 0;
  for (const item of items) {
    if (item.keep) continue;
    item.msg = mapResults(item.msg, (r) => {
      const text = resultText(r.content);
      if (text.length <= limit) return r;
      n++;
      return { ...r, content: `${text.slice(0, excerpt)}\n[ctx compact: ${text.length - 2 * excerpt} characters pruned]\n${text.slice(-excerpt)}` };
    });
  }
  return n;
}

/** Every message not kept becomes one summary message, where the first of them was. */
async function summarize(items: Item[], summarizer: (m: NeutralMessage[]) => Promise<string>): Promise<[Item[], number]> {
  const gone = items.filter((i) => !i.keep);
  if (gone.length === 0) return [items, 0];
  const text = (await summarizer(gone.map((i) => i.msg))).trim();
  const summary: Item = { msg: { role: 'user', content: [{ type: 'text', text: `${SUMMARY_HEADER} (${gone.length} messages):\n\n${text}` }] }, at: -1, keep: true, summary: true };
  const firstGone = items.indexOf(gone[0]);
  const out = items.filter((i) => i.keep);
  out.splice(items.slice(0, firstGone).filter((i) => i.keep).length, 0, summary);
  return [out, gone.length];
}

/** Last resort: the oldest groups of unkept messages go until the context fits. */
function truncate(items: Item[], budget: number, count: (messages: readonly NeutralMessage[]) => number): [Item[], number] {
  const msgs = items.map((i) => i.msg);
  const dropped = new Set<number>();
  let total = count(msgs);
  for (const g of pairGroups(msgs)) {
    if (total <= budget) break;
    if (g.some((i) => items[i].keep)) continue;
    g.forEach((i) => dropped.add(i));
    total -= count(g.map((i) => msgs[i]));
  }
  return [items.filter((_, i) => !dropped.has(i)), dropped.size];
}

/**
 * Calls without a result get an error result right after them, results without a call become text,
 * empty messages go: no tool result without its call and no call without its result.
 */
export function normalize(messages: readonly NeutralMessage[]): NeutralMessage[] {
  return normalizeItems(messages.map((msg, at) => ({ msg, at, keep: true }))).map((i) => i.msg);
}

/** `normalize`, keeping where each message came from (a message normalize adds is at -1). */
function normalizeItems(items: readonly Item[]): Item[] {
  const messages = items.map((i) => i.msg);
  const callIds = new Set(messages.flatMap((m) => calls(m).map((c) => c.id)));
  const resultIds = new Set(messages.flatMap((m) => results(m).map((r) => r.call_id)));
  const out: Item[] = [];
  for (const item of items) {
    const m = item.msg;
    const orphan = m.content.some((b) => b.type === 'tool_result' && !callIds.has(b.call_id));
    const content = m.content.map((b): Block => (b.type === 'tool_result' && !callIds.has(b.call_id) ? { type: 'text', text: `[tool result for call ${b.call_id}, whose call is not in this context]\n${resultText(b.content)}` } : b));
    if (content.length) out.push({ ...item, msg: orphan ? { ...m, content } : m });
    const open = calls(m).filter((c) => !resultIds.has(c.id));
    if (open.length)
      out.push({ msg: { role: 'tool', content: open.map((c): ToolResultBlock => ({ type: 'tool_result', call_id: c.id, content: '[ctx compact: no result was recorded for this call]', is_error: true })) }, at: -1, keep: true });
  }
  return out;
}

function mapResults(m: NeutralMessage, f: (r: ToolResultBlock) => ToolResultBlock): NeutralMessage {
  let changed = false;
  const content = m.content.map((b) => {
    if (b.type !== 'tool_result') return b;
    const r = f(b);
    if (r !== b) changed = true;
    return r;
  });
  return changed ? { ...m, content } : m;
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

const firstLine = (s: string, n: number) => {
  const line = s.trim().split('\n')[0] ?? '';
  return line.length > n ? `${line.slice(0, n)}…` : line;
};
const textOf = (m: NeutralMessage) => m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
const PATH_KEYS = /^(file_?path|path|notebook_path|filename|file)$/i;

/**
 * Deterministic summary of `summarized` within `all`: the task (the first prompt), decisions (the
 * last assistant text of each summarized turn), files touched (paths in tool inputs), open items
 * (failed or unanswered tool calls).
 */
export function extractiveSummary(summarized: readonly NeutralMessage[], all: readonly NeutralMessage[] = summarized): string {
  const task = all.find(isPrompt);
  const decisions: string[] = [];
  let last: string | undefined;
  for (const m of summarized) {
    if (isPrompt(m) && last !== undefined) {
      decisions.push(last);
      last = undefined;
    }
    if (m.role === 'assistant' && textOf(m).trim()) last = firstLine(textOf(m), 200);
  }
  if (last !== undefined) decisions.push(last);
  const files = new Set<string>();
  const visit = (v: unknown, key = ''): void => {
    if (typeof v === 'string') {
      if (PATH_KEYS.test(key) && v.trim()) files.add(v.trim());
    } else if (Array.isArray(v)) v.forEach((x) => visit(x, key));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, k);
  };
  summarized.forEach((m) => calls(m).forEach((c) => visit(c.input)));
  const answered = new Map<string, ToolResultBlock>();
  all.forEach((m) => results(m).forEach((r) => answered.set(r.call_id, r)));
  const open: string[] = [];
  all.forEach((m) =>
    calls(m).forEach((c) => {
      const r = answered.get(c.id);
      if (r === undefined) open.push(`${c.name} ${c.id}: no result`);
      else if (r.is_error) open.push(`${c.name} ${c.id}: failed: ${firstLine(resultText(r.content), 160)}`);
    }),
  );
  const list = (xs: readonly string[]) => (xs.length ? xs.map((x) => `- ${x}`).join('\n') : '- none');
  return [`Task: ${task ? firstLine(textOf(task), 500) : '(none)'}`, `Decisions:\n${list(decisions)}`, `Files touched:\n${list([...files])}`, `Open items:\n${list(open)}`].join('\n\n');
}
