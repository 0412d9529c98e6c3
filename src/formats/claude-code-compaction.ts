// `ctx compact` on a claude-code-v1 chain, written in Claude Code's own compaction shape: a
// `compact_boundary` system line, an `isCompactSummary` user line holding the summary, then the kept
// messages as their original transcript lines, so `claude --resume` sees real turns and tool calls.
import { createHash } from 'node:crypto';
import { isRecord, resultText, type Block, type NeutralMessage } from '../core/neutral.js';
import { toBlocks, neutralLines } from './claude-code-messages.js';
import type { CompactionWrite } from './format.js';
import { parseJsonLines } from './jsonl.js';
import { renderMarkdown } from './markdown.js';

export const CLAUDE_CONTINUATION = 'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.';

type Line = Record<string, unknown>;

/** One transcript line: parsed, and its bytes as the runtime wrote them. */
interface SourceLine {
  value: Line;
  bytes: Uint8Array;
}

export function claudeCompactLines(c: CompactionWrite): Uint8Array {
  const uuid = (salt: string) => {
    const h = createHash('sha256').update(`${c.tip} ${salt}`).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  const parsed = parseJsonLines(c.source);
  // the session fields the new lines carry: the newest line's that has them
  let last: Line | undefined;
  for (const { value } of parsed) if (isRecord(value) && typeof value.sessionId === 'string') last = value;
  const session: Line = {};
  for (const k of ['userType', 'cwd', 'sessionId', 'version', 'gitBranch']) if (last?.[k] !== undefined) session[k] = last[k];
  const groups = messageLines(c, parsed);
  // the chain the compaction heads: the main one, or a subagent transcript's own sidechain
  const first = c.out.origins.find((o) => o >= 0 && groups[o] !== null);
  const side = first !== undefined && groups[first]![0].value.isSidechain === true;
  const boundary = uuid('boundary');
  const head: Line[] = [
    { parentUuid: null, logicalParentUuid: last?.uuid ?? null, isSidechain: side, ...session, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, timestamp: c.timestamp, uuid: boundary, level: 'info', compactMetadata: { trigger: 'manual', preTokens: c.out.tokensBefore } },
  ];
  const summaryLine = (text: string): Line => ({ parentUuid: boundary, isSidechain: side, ...session, type: 'user', message: { role: 'user', content: `${CLAUDE_CONTINUATION}\n\n${text}` }, isVisibleInTranscriptOnly: true, isCompactSummary: true, uuid: uuid('summary'), timestamp: c.timestamp });
  // a kept message read from another format has no line to keep: the whole context goes into the summary
  if (c.out.origins.some((o) => o >= 0 && groups[o] === null)) return toBytes([...head, summaryLine(text(renderMarkdown(c.out.messages)))]);
  if (c.out.summaryAt >= 0) head.push(summaryLine(text(c.out.messages[c.out.summaryAt].content.map((b) => (b.type === 'text' ? b.text : '')).join(''))));
  const chain = new Relinker(head[head.length - 1].uuid as string, side);
  const parts: Uint8Array[] = [toBytes(head)];
  c.out.messages.forEach((m, j) => {
    const o = c.out.origins[j];
    if (j === c.out.summaryAt) return;
    if (o < 0) return parts.push(toBytes([chain.inserted(resultLine(m, session, c.timestamp, uuid(`result ${j}`)))]));
    const patched = patchContent(groups[o]!, c.input[o], m);
    for (const l of patched) parts.push(chain.keep(l));
  });
  return Buffer.concat(parts);
}

/** A file's last line may lack its newline; in the middle of an artifact it needs one. */
const wholeLine = (b: Uint8Array) => (b[b.length - 1] === 0x0a ? b : Buffer.concat([b, Buffer.from('\n')]));
const text = (b: Uint8Array | string) => (typeof b === 'string' ? b : Buffer.from(b).toString('utf8'));
const toBytes = (ls: readonly Line[]) => Buffer.from(ls.map((l) => `${JSON.stringify(l)}\n`).join(''));

/**
 * The lines each input message was read from: the source is read again as Claude Code lines, and
 * its messages are, in order, the input messages read from it (`inSource`). null: a message read
 * from another format, which has no line to keep.
 */
function messageLines(c: CompactionWrite, parsed: readonly { value: unknown; start: number; end: number }[]): (SourceLine[] | null)[] {
  const { lines } = neutralLines(parsed.map((l) => l.value));
  const fromSource = c.input.filter((_, i) => c.inSource[i]).length;
  if (fromSource !== lines.length) return c.input.map(() => null);
  let k = 0;
  return c.input.map((_, i) =>
    c.inSource[i] ? lines[k++].map((j) => ({ value: parsed[j].value as Line, bytes: wholeLine(c.source.subarray(parsed[j].start, parsed[j].end)) })) : null,
  );
}

/**
 * The message's lines with only the blocks the pipeline changed rewritten (a pruned or deduped
 * result, a result whose call is gone turned into text); lines with nothing changed keep their bytes.
 */
function patchContent(lines: readonly SourceLine[], before: NeutralMessage, after: NeutralMessage): SourceLine[] {
  let k = 0;
  return lines.map((l) => {
    const content = (l.value.message as Line).content;
    if (!Array.isArray(content)) {
      k += toBlocks(content).length;
      return l;
    }
    let changed = false;
    const entries = content.map((entry) => {
      if (toBlocks([entry]).length === 0) return entry;
      const [was, now] = [before.content[k], after.content[k]];
      k++;
      if (JSON.stringify(was) === JSON.stringify(now)) return entry;
      changed = true;
      return claudeBlock(entry, now);
    });
    if (!changed) return l;
    const value = { ...l.value, message: { ...(l.value.message as Line), content: entries } };
    return { value, bytes: toBytes([value]) };
  });
}

/** A changed block back in the line: a result keeps its other fields; anything else is written anew. */
function claudeBlock(entry: unknown, b: Block): unknown {
  if (b.type === 'tool_result' && isRecord(entry) && entry.type === 'tool_result')
    return { ...entry, content: typeof b.content === 'string' ? b.content : b.content.map((x) => claudeBlock(undefined, x)) };
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'thinking':
      return { type: 'thinking', thinking: b.text, ...(b.signature ? { signature: b.signature } : {}) };
    case 'tool_call':
      return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: b.call_id, content: typeof b.content === 'string' ? b.content : resultText(b.content), ...(b.is_error ? { is_error: true } : {}) };
    case 'image':
      return { type: 'image', source: b.data !== undefined ? { type: 'base64', media_type: b.media_type, data: b.data } : { type: 'url', url: b.url } };
  }
}

/** The error results the pipeline gives calls that never got one, as Claude Code's tool-result user line. */
function resultLine(m: NeutralMessage, session: Line, timestamp: string, uuid: string): Line {
  const content = m.content.map((b) => claudeBlock(undefined, b));
  return { parentUuid: null, isSidechain: false, ...session, type: 'user', message: { role: 'user', content }, uuid, timestamp };
}

/**
 * The parent links of the kept lines: the first line of the main chain hangs from the summary; a
 * line whose parent was not kept hangs from the kept line before it (on its own side: main chain or
 * sidechain); every other link stays as Claude Code wrote it.
 */
class Relinker {
  private written = new Set<string>();
  private lastOf = new Map<boolean, string | null>();
  /** a line the pipeline inserted after a kept line takes that line's place as a parent */
  private insertedAfter = new Map<string, string>();
  private started = false;
  private lastSide: boolean;

  /** `top`: the summary (else the boundary), heading the chain of side `main` */
  constructor(top: string, private readonly main: boolean) {
    this.written.add(top);
    this.lastOf.set(main, top).set(!main, null);
    this.lastSide = main;
  }

  keep(l: SourceLine): Uint8Array {
    const side = l.value.isSidechain === true;
    const parent = l.value.parentUuid;
    let want: unknown = parent;
    if (side === this.main && !this.started) want = this.lastOf.get(side);
    else if (typeof parent === 'string' && this.written.has(parent)) want = this.insertedAfter.get(parent) ?? parent;
    else if (typeof parent === 'string') want = this.lastOf.get(side) ?? null;
    if (side === this.main) this.started = true;
    this.wrote(l.value.uuid, side);
    return want === parent ? l.bytes : toBytes([{ ...l.value, parentUuid: want }]);
  }

  /** A line the pipeline made, after the last line written and on its side. */
  inserted(line: Line): Line {
    const last = this.lastOf.get(this.lastSide) ?? null;
    Object.assign(line, { parentUuid: last, isSidechain: this.lastSide });
    if (last !== null) this.insertedAfter.set(last, line.uuid as string);
    this.wrote(line.uuid, this.lastSide);
    return line;
  }

  private wrote(uuid: unknown, side: boolean) {
    this.lastSide = side;
    if (typeof uuid !== 'string') return;
    this.written.add(uuid);
    this.lastOf.set(side, uuid);
  }
}

/**
 * The uuids of the lines a compact_boundary keeps from before it, in order (Claude Code 2.1.3xx:
 * `compactMetadata.preservedMessages`, or the older `preservedSegment` walked tail to head in `before`).
 */
function preservedUuids(boundary: Line, before: readonly Line[]): string[] {
  const meta = isRecord(boundary.compactMetadata) ? boundary.compactMetadata : {};
  const kept = isRecord(meta.preservedMessages) ? meta.preservedMessages : undefined;
  const list = kept && (Array.isArray(kept.allUuids) ? kept.allUuids : kept.uuids);
  if (Array.isArray(list)) return list.filter((u): u is string => typeof u === 'string');
  const seg = isRecord(meta.preservedSegment) ? meta.preservedSegment : undefined;
  if (typeof seg?.headUuid !== 'string' || typeof seg.tailUuid !== 'string') return [];
  const byUuid = new Map(before.filter((l) => typeof l.uuid === 'string').map((l) => [l.uuid as string, l]));
  const out: string[] = [];
  for (let u: unknown = seg.tailUuid; typeof u === 'string' && byUuid.has(u) && out.length <= byUuid.size; u = byUuid.get(u)!.parentUuid) {
    out.push(u);
    if (u === seg.headUuid) return out.reverse();
  }
  return [];
}

/**
 * A context that starts at a compaction (a compact_boundary, its summary) as Claude Code's own
 * resume reads it: the lines the boundary keeps from before it, found in `before` (the context up to
 * the compaction), placed after the summary, their bytes unchanged. Null: it keeps nothing. Only the
 * context's first lines are read.
 */
export function withPreserved(context: Uint8Array): ((before: () => Promise<Uint8Array>) => Promise<Uint8Array>) | null {
  const head = headLines(context);
  const boundary = head.next().value?.value;
  if (!isRecord(boundary) || boundary.type !== 'system' || boundary.subtype !== 'compact_boundary' || !isRecord(boundary.compactMetadata)) return null;
  const meta = boundary.compactMetadata;
  if (meta.preservedMessages === undefined && meta.preservedSegment === undefined) return null;
  // after the boundary and the summary line(s) that follow it
  let next = head.next();
  while (!next.done && isRecord(next.value.value) && next.value.value.isCompactSummary === true) next = head.next();
  const cut = next.done ? context.length : next.value.start;
  return async (before) => {
    const prior = await before();
    const parsed = parseJsonLines(prior);
    const uuids = preservedUuids(boundary, parsed.map((l) => (isRecord(l.value) ? l.value : {})));
    // already there (a context read this way before, kept whole in a snapshot)
    const following: unknown[] = [];
    for (let l = next; !l.done && following.length < uuids.length; l = head.next()) following.push(isRecord(l.value.value) ? l.value.value.uuid : undefined);
    if (uuids.every((u, i) => following[i] === u)) return context;
    const wanted = new Set(uuids);
    const kept = parsed.filter((l) => isRecord(l.value) && wanted.has(l.value.uuid as string)).map((l) => wholeLine(prior.subarray(l.start, l.end)));
    return Buffer.concat([wholeLine(context.subarray(0, cut)), ...kept, context.subarray(cut)]);
  };
}

/** The lines of `bytes` one at a time, each parsed (undefined when not JSON): a head is read without the rest. */
function* headLines(bytes: Uint8Array): Generator<{ value: unknown; start: number }> {
  for (let start = 0; start < bytes.length; ) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl < 0 ? bytes.length : nl;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8'));
    } catch {
      value = undefined;
    }
    yield { value, start };
    start = end + 1;
  }
}
