// opencode-session-v1: an opencode session as `opencode export <id>` prints it, one JSON document
// `{"info": <session>, "messages": [{"info": <message>, "parts": [<part>…]}…]}`, written as opencode
// writes it (JSON.stringify with two spaces, a newline). opencode keeps sessions in SQLite, so there
// is no file it appends to: each artifact is such a document holding the session's info and the
// messages a turn added or changed; they join by merging (the last info wins, a message replaces the
// one with its id, in place), encoded once, so the artifacts of one export give its bytes back.
import { BadInputError } from '../errors/index.js';
import { compact, isRecord, resultText, str, type Block, type NeutralMessage } from '../core/neutral.js';
import type { StorageFormat } from './format.js';
import { opencodeUsage } from './opencode-usage.js';

export const OPENCODE_FORMAT = 'opencode-session-v1';

export type Json = Record<string, unknown>;
export interface OpencodeMessage {
  info: Json;
  parts: Json[];
}
export interface OpencodeSession {
  info: Json;
  messages: OpencodeMessage[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export const isOpencodeMessage = (m: unknown): m is OpencodeMessage =>
  isRecord(m) && isRecord(m.info) && (m.info.role === 'user' || m.info.role === 'assistant') && Array.isArray(m.parts) && m.parts.every(isRecord);

/** A session document; throws BadInputError naming what is wrong. */
export function parseSession(bytes: Uint8Array): OpencodeSession {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (e) {
    throw new BadInputError(`not a JSON document: ${(e as Error).message}`);
  }
  return checkSession(value);
}

export function checkSession(value: unknown): OpencodeSession {
  if (!isRecord(value) || !isRecord(value.info) || !Array.isArray(value.messages)) throw new BadInputError('not an opencode session: no "info" object and "messages" array (what `opencode export` prints)');
  value.messages.forEach((m, i) => {
    if (!isOpencodeMessage(m)) throw new BadInputError(`not an opencode session: message ${i} has no info with a user or assistant role and parts`);
  });
  return value as unknown as OpencodeSession;
}

/** As opencode prints a session: the canonical bytes every artifact is written in. */
export const encodeSession = (s: OpencodeSession): Uint8Array => Buffer.from(`${JSON.stringify({ info: s.info, messages: s.messages }, null, 2)}\n`, 'utf8');

/** Sessions in order → one: the last info, each message in the place its id first took, the last version of it. */
export function mergeSessions(sessions: readonly OpencodeSession[]): OpencodeSession {
  const at = new Map<string, number>();
  const messages: OpencodeMessage[] = [];
  let info: Json = {};
  for (const s of sessions) {
    if (Object.keys(s.info).length) info = s.info;
    for (const m of s.messages) {
      const id = str(m.info.id);
      const i = id === undefined ? undefined : at.get(id);
      if (i !== undefined) messages[i] = m;
      else {
        if (id !== undefined) at.set(id, messages.length);
        messages.push(m);
      }
    }
  }
  return { info, messages };
}

/** The user message a compaction starts with: it holds a `compaction` part. */
export const isCompactionRequest = (m: OpencodeMessage) => m.info.role === 'user' && m.parts.some((p) => p.type === 'compaction');

/** What opencode tells the model a compaction request says (its message-v2 toModelMessages). */
export const COMPACTION_PROMPT = 'What did we do so far?';

const partText = (p: Json): string[] => {
  if (p.type === 'text' || p.type === 'reasoning') return typeof p.text === 'string' ? [p.text] : [];
  if (p.type === 'tool' && isRecord(p.state)) return [String(p.tool ?? ''), JSON.stringify(p.state.input ?? {}), ...(typeof p.state.output === 'string' ? [p.state.output] : [])];
  return [];
};

/** Messages → neutral: text, reasoning as thinking, each tool part a call in its message and its result in a tool message after it. */
export function opencodeToNeutral(entries: readonly unknown[]): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  for (const m of entries) {
    if (!isOpencodeMessage(m)) continue;
    const created = isRecord(m.info.time) && typeof m.info.time.created === 'number' ? new Date(m.info.time.created).toISOString() : undefined;
    const base = compact({ timestamp: created, ids: typeof m.info.id === 'string' ? { id: m.info.id } : undefined });
    const content: Block[] = [];
    const results: Block[] = [];
    for (const p of m.parts) {
      if (p.type === 'text' && typeof p.text === 'string' && p.text !== '' && p.ignored !== true) content.push({ type: 'text', text: p.text });
      else if (p.type === 'reasoning' && typeof p.text === 'string' && p.text !== '') content.push({ type: 'thinking', text: p.text });
      else if (p.type === 'compaction') content.push({ type: 'text', text: COMPACTION_PROMPT });
      else if (p.type === 'tool' && isRecord(p.state)) {
        const id = String(p.callID ?? '');
        content.push({ type: 'tool_call', id, name: String(p.tool ?? ''), input: p.state.input ?? {} });
        const s = p.state;
        if (s.status === 'completed') results.push({ type: 'tool_result', call_id: id, content: String(s.output ?? '') });
        else if (s.status === 'error') results.push({ type: 'tool_result', call_id: id, content: String(s.error ?? ''), is_error: true });
        // opencode's own words for a call that never finished
        else results.push({ type: 'tool_result', call_id: id, content: '[Tool execution was interrupted]', is_error: true });
      }
    }
    if (content.length) out.push({ role: m.info.role as 'user' | 'assistant', content, ...base });
    if (results.length) out.push(compact({ role: 'tool' as const, content: results, timestamp: created }));
  }
  return out;
}

const hex12 = (n: number) => Math.max(0, Math.floor(n)).toString(16).padStart(12, '0').slice(-12);
/** An opencode id of `prefix` that sorts by `n` (opencode orders messages and parts by id). */
export const ascendingId = (prefix: string, n: number, tail: string) => `${prefix}_${hex12(n)}${tail.replace(/[^A-Za-z0-9]/g, '').padEnd(14, '0').slice(0, 14)}`;

/**
 * Neutral messages → a session: a user message per user turn, an assistant message per answer with
 * its tool calls as tool parts carrying the results that answer them. Ids are placeholders in
 * order (an export gives every id its own); model and directory are left for the export to fill.
 */
export function neutralToOpencode(messages: readonly NeutralMessage[]): OpencodeSession {
  const results = new Map<string, { content: Block[] | string; is_error?: boolean }>();
  for (const m of messages) for (const b of m.content) if (b.type === 'tool_result') results.set(b.call_id, b);
  const out: OpencodeMessage[] = [];
  let lastUser: string | undefined;
  let n = 0;
  const time = (m: NeutralMessage) => (m.timestamp && !Number.isNaN(Date.parse(m.timestamp)) ? Date.parse(m.timestamp) : 0);
  for (const m of messages) {
    const id = ascendingId('msg', ++n, 'ctx');
    const t = time(m);
    if (m.role === 'user' || m.role === 'system') {
      const texts = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : b.type === 'image' ? ['[image]'] : []));
      if (!texts.length) continue;
      lastUser = id;
      out.push({ info: { role: 'user', time: { created: t }, agent: 'build', id }, parts: texts.map((text, i) => ({ type: 'text', text, id: ascendingId('prt', n * 1000 + i, 'ctx') })) });
    } else if (m.role === 'assistant') {
      const parts: Json[] = [{ type: 'step-start' }];
      let calls = 0;
      for (const b of m.content) {
        if (b.type === 'text' && b.text !== '') parts.push({ type: 'text', text: b.text, time: { start: t, end: t } });
        else if (b.type === 'thinking' && b.text !== '') parts.push({ type: 'reasoning', text: b.text, time: { start: t, end: t } });
        else if (b.type === 'tool_call') {
          calls++;
          const r = results.get(b.id);
          const input = isRecord(b.input) ? b.input : { input: b.input };
          const state = r === undefined
            ? { status: 'error', input, error: '[Tool execution was interrupted]', time: { start: t, end: t } }
            : r.is_error
              ? { status: 'error', input, error: resultText(r.content), time: { start: t, end: t } }
              : { status: 'completed', input, output: resultText(r.content), title: '', metadata: {}, time: { start: t, end: t } };
          parts.push({ type: 'tool', tool: b.name, callID: b.id, state });
        }
      }
      if (parts.length === 1) continue;
      const finish = calls ? 'tool-calls' : 'stop';
      parts.push({ reason: finish, type: 'step-finish', tokens: { total: 0, input: 0, output: 0, reasoning: 0, cache: { write: 0, read: 0 } }, cost: 0 });
      parts.forEach((p, i) => (p.id = ascendingId('prt', n * 1000 + i, 'ctx')));
      out.push({
        info: { ...(lastUser ? { parentID: lastUser } : {}), role: 'assistant', mode: 'build', agent: 'build', cost: 0, tokens: { total: 0, input: 0, output: 0, reasoning: 0, cache: { write: 0, read: 0 } }, time: { created: t, completed: t }, finish, id },
        parts,
      });
    }
  }
  return { info: {}, messages: out };
}

export const opencodeSession: StorageFormat = {
  name: OPENCODE_FORMAT,
  runtime: 'opencode',
  usage: opencodeUsage,
  ext: 'json',
  parse: (bytes) => parseSession(bytes).messages,
  concat: (parts) => (parts.length === 1 ? parts[0] : encodeSession(mergeSessions(parts.map(parseSession)))),
  encode: (entries) => encodeSession({ info: {}, messages: entries.filter(isOpencodeMessage) }),
  concatRule: 'merge',
  count: (entries) => entries.filter(isOpencodeMessage).length,
  tokenTexts: (entries) => entries.filter(isOpencodeMessage).flatMap((m) => m.parts.flatMap(partText)),
  toNeutral: opencodeToNeutral,
  fromNeutral: (messages) => encodeSession(neutralToOpencode(messages)),
};
