// pi-session-v3: a pi session (~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl, session version
// 3), bytes exactly as pi appended them, joined by byte append. Lines: a `session` header, then
// entries of a tree (`id`, `parentId`): `message` (user, assistant, toolResult, bashExecution, …),
// `model_change`, `thinking_level_change`, `compaction`, `branch_summary`, `custom_message`, `label`,
// `session_info`. The conversation is the path from the last entry to the root, as pi's own
// buildSessionContext reads it: after a compaction, its summary, the kept entries, then the rest.
import { createHash } from 'node:crypto';
import { eachObjectLine, parseJsonLines, parseObjectLines } from './jsonl.js';
import { concatBytes, contentTexts, timestampField, type StorageFormat } from './format.js';
import { piUsage } from './pi-usage.js';
import { compact, isRecord, str, type Block, type NeutralMessage } from '../core/neutral.js';

export const PI_FORMAT = 'pi-session-v3';

type Entry = Record<string, unknown>;

// what pi puts around a compaction's or a branch's summary when it sends it to the model (core/messages.js)
const COMPACTION_PREFIX = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
const COMPACTION_SUFFIX = '\n</summary>';
const BRANCH_PREFIX = 'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n';
const BRANCH_SUFFIX = '</summary>';

/** The entries on the path from the last entry to the root, compaction applied: what pi sends to the model. */
export function sessionPath(entries: readonly unknown[]): Entry[] {
  const tree = entries.filter((e): e is Entry => isRecord(e) && e.type !== 'session' && typeof e.id === 'string');
  const byId = new Map(tree.map((e) => [e.id as string, e]));
  const path: Entry[] = [];
  const seen = new Set<string>();
  for (let e: Entry | undefined = tree.at(-1); e && !seen.has(e.id as string); e = typeof e.parentId === 'string' ? byId.get(e.parentId) : undefined) {
    seen.add(e.id as string);
    path.unshift(e);
  }
  let at = path.length - 1;
  while (at >= 0 && path[at].type !== 'compaction') at--;
  if (at === -1) return path;
  const c = path[at];
  const first = path.findIndex((e) => e.id === c.firstKeptEntryId);
  return [c, ...(first === -1 || first > at ? [] : path.slice(first, at)), ...path.slice(at + 1)];
}

const text = (t: string): Block => ({ type: 'text', text: t });

/** pi's content (a string, or text, image, thinking and toolCall parts) → neutral blocks. */
function blocks(content: unknown): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [text(content)];
  if (!Array.isArray(content)) return [];
  return content.flatMap((p): Block[] => {
    if (!isRecord(p)) return [];
    switch (p.type) {
      case 'text':
        return typeof p.text === 'string' ? [text(p.text)] : [];
      case 'thinking':
        return typeof p.thinking === 'string' ? [compact({ type: 'thinking' as const, text: p.thinking, signature: str(p.thinkingSignature) })] : [];
      case 'image':
        return [compact({ type: 'image' as const, media_type: str(p.mimeType), data: str(p.data) })];
      case 'toolCall':
        return [{ type: 'tool_call', id: String(p.id ?? ''), name: String(p.name ?? ''), input: p.arguments ?? {} }];
      default:
        return [];
    }
  });
}

/** A `!command` the user ran, as pi tells the model of it (bashExecutionToText). */
function bashText(m: Entry): string {
  let t = `Ran \`${String(m.command ?? '')}\`\n`;
  t += m.output ? `\`\`\`\n${String(m.output)}\n\`\`\`` : '(no output)';
  if (m.cancelled) t += '\n\n(command cancelled)';
  else if (typeof m.exitCode === 'number' && m.exitCode !== 0) t += `\n\nCommand exited with code ${m.exitCode}`;
  if (m.truncated && m.fullOutputPath) t += `\n\n[Output truncated. Full output: ${String(m.fullOutputPath)}]`;
  return t;
}

/** One entry of the path → the neutral message pi sends for it, or none. */
function entryMessage(e: Entry): NeutralMessage | null {
  const base = { timestamp: str(e.timestamp), ids: { id: e.id as string } };
  if (e.type === 'compaction') return typeof e.summary === 'string' ? { role: 'user', content: [text(COMPACTION_PREFIX + e.summary + COMPACTION_SUFFIX)], ...base } : null;
  if (e.type === 'branch_summary') return typeof e.summary === 'string' && e.summary ? { role: 'user', content: [text(BRANCH_PREFIX + e.summary + BRANCH_SUFFIX)], ...base } : null;
  if (e.type === 'custom_message') return { role: 'user', content: blocks(e.content), ...base };
  if (e.type !== 'message' || !isRecord(e.message)) return null;
  const m = e.message;
  switch (m.role) {
    case 'user':
      return { role: 'user', content: blocks(m.content), ...base };
    case 'assistant':
      // pi leaves an errored or aborted answer out of what it sends
      if (m.stopReason === 'error' || m.stopReason === 'aborted') return null;
      return { role: 'assistant', content: blocks(m.content), ...base };
    case 'toolResult':
      return { role: 'tool', content: [compact({ type: 'tool_result' as const, call_id: String(m.toolCallId ?? ''), content: blocks(m.content), is_error: m.isError === true ? true : undefined })], ...base };
    case 'bashExecution':
      return m.excludeFromContext ? null : { role: 'user', content: [text(bashText(m))], ...base };
    case 'custom':
      return { role: 'user', content: blocks(m.content), ...base };
    default:
      return null;
  }
}

export function piToNeutral(entries: readonly unknown[]): NeutralMessage[] {
  return sessionPath(entries).flatMap((e) => {
    const m = entryMessage(e);
    return m && m.content.length ? [m] : [];
  });
}

const ZERO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** An 8-hex id as pi makes them, derived from the message's place and content: the same messages give the same bytes. */
const entryId = (n: number, m: NeutralMessage, used: Set<string>) => {
  for (let k = 0; ; k++) {
    const id = createHash('sha256').update(`${n}:${k}:${JSON.stringify(m)}`).digest('hex').slice(0, 8);
    if (!used.has(id)) return used.add(id), id;
  }
};

const millis = (t: string | undefined) => (t !== undefined && !Number.isNaN(Date.parse(t)) ? Date.parse(t) : 0);

/**
 * Neutral messages → pi entries, each the child of the one before: user and assistant messages,
 * each tool result its own toolResult message after its call (a result whose call is not in the
 * context becomes user text: a model refuses a result of no call). System text is a user message.
 */
export function neutralToPiEntries(messages: readonly NeutralMessage[], parentId: string | null = null): Entry[] {
  const used = new Set<string>();
  const names = new Map<string, string>();
  const out: Entry[] = [];
  let parent = parentId;
  const push = (n: number, src: NeutralMessage, message: Entry) => {
    const id = entryId(n, src, used);
    const timestamp = src.timestamp ?? new Date(0).toISOString();
    out.push({ type: 'message', id, parentId: parent, timestamp, message: { ...message, timestamp: millis(src.timestamp) } });
    parent = id;
  };
  messages.forEach((m, n) => {
    if (m.role === 'assistant') {
      const content = m.content.flatMap((b): Entry[] => {
        if (b.type === 'text') return b.text === '' ? [] : [{ type: 'text', text: b.text }];
        if (b.type === 'thinking') return [compact({ type: 'thinking', thinking: b.text, thinkingSignature: b.signature })];
        if (b.type === 'tool_call') {
          names.set(b.id, b.name);
          return [{ type: 'toolCall', id: b.id, name: b.name, arguments: isRecord(b.input) ? b.input : { input: b.input } }];
        }
        return [];
      });
      if (content.length === 0) return;
      const stopReason = content.some((c) => c.type === 'toolCall') ? 'toolUse' : 'stop';
      push(n, m, { role: 'assistant', content, api: 'ctx', provider: 'ctx', model: 'ctx', usage: ZERO_USAGE, stopReason });
      return;
    }
    let user: Entry[] = [];
    const flush = () => {
      if (user.length) push(n, m, { role: 'user', content: user });
      user = [];
    };
    for (const b of m.content) {
      if (b.type === 'tool_result') {
        const name = names.get(b.call_id);
        const content = typeof b.content === 'string' ? [{ type: 'text', text: b.content }] : b.content.flatMap(userPart);
        if (name === undefined) {
          user.push({ type: 'text', text: `[result of tool call ${b.call_id}, whose call is not in this context]` }, ...content);
          continue;
        }
        flush();
        push(n, m, { role: 'toolResult', toolCallId: b.call_id, toolName: name, content, isError: b.is_error === true });
      } else user.push(...userPart(b));
    }
    flush();
  });
  return out;
}

function userPart(b: Block): Entry[] {
  switch (b.type) {
    case 'text':
    case 'thinking':
      return b.text === '' ? [] : [{ type: 'text', text: b.text }];
    case 'image':
      return b.data !== undefined ? [{ type: 'image', data: b.data, mimeType: b.media_type ?? 'image/png' }] : b.url !== undefined ? [{ type: 'text', text: `[image ${b.url}]` }] : [];
    default:
      return [];
  }
}

const isMessage = (e: unknown) => isRecord(e) && e.type === 'message' && isRecord(e.message);
const lines = (entries: readonly unknown[]) => Buffer.from(entries.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');

/**
 * A context that starts at a compaction: the session header and the kept entries (from
 * `firstKeptEntryId` to the compaction) read from before it, put first, as pi's resume sends them.
 */
function withKept(context: Uint8Array): ((before: () => Promise<Uint8Array>) => Promise<Uint8Array>) | null {
  const nl = Buffer.from(context).indexOf(0x0a);
  let first: unknown;
  try {
    first = JSON.parse(Buffer.from(context.subarray(0, nl === -1 ? context.length : nl)).toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(first) || first.type !== 'compaction' || typeof first.firstKeptEntryId !== 'string') return null;
  const compaction = first;
  return async (before) => {
    const prior = await before();
    const parsed = parseJsonLines(prior).filter((l) => isRecord(l.value));
    const header = parsed.find((l) => (l.value as Entry).type === 'session');
    const byId = new Map(parsed.filter((l) => typeof (l.value as Entry).id === 'string').map((l) => [(l.value as Entry).id as string, l]));
    const kept: typeof parsed = [];
    for (let id = compaction.parentId; typeof id === 'string' && byId.has(id); id = (byId.get(id)!.value as Entry).parentId) {
      kept.unshift(byId.get(id)!);
      if (id === compaction.firstKeptEntryId) break;
    }
    if (kept[0] && (kept[0].value as Entry).id !== compaction.firstKeptEntryId) kept.length = 0;
    const whole = (l: { start: number; end: number }) => {
      const b = prior.subarray(l.start, l.end);
      return b[b.length - 1] === 0x0a ? b : Buffer.concat([b, Buffer.from('\n')]);
    };
    return Buffer.concat([...(header ? [whole(header)] : []), ...kept.map(whole), context]);
  };
}

export const piSession: StorageFormat = {
  name: PI_FORMAT,
  runtime: 'pi',
  usage: piUsage,
  ext: 'jsonl',
  parse: parseObjectLines,
  eachEntry: eachObjectLine,
  concat: concatBytes,
  concatRule: 'append',
  count: (entries) => entries.filter(isMessage).length,
  tokenTexts: (entries) =>
    entries.flatMap((e) => (isMessage(e) ? contentTexts((e as { message: Entry }).message.content) : isRecord(e) && typeof e.summary === 'string' ? [e.summary] : [])),
  entryTime: timestampField,
  toNeutral: piToNeutral,
  fromNeutral: (messages) => lines(neutralToPiEntries(messages)),
  withKept,
};
