// A message's large parts cut for the web view: a tool result of 50 MB would go out in one answer
// and freeze the tab that draws it, so each part carries its first 64 Ki characters and says how
// long it is; the page asks for the rest in pieces (`partPiece`), by the part's place in the message.
import type { Block, NeutralMessage } from '../core/neutral.js';
import { UsageError } from '../errors/index.js';
import type { Cut } from '../output/records.js';

/** Characters of one part sent with its message. */
export const PART_LIMIT = 64 * 1024;
/** An image's base64 sent with its message: a screenshot draws at once, it is not text for the page to lay out. */
export const IMAGE_LIMIT = 4 * 1024 * 1024;
/** Characters of one part sent in one piece at most. */
export const PIECE_LIMIT = 1024 * 1024;

/** The message with every part longer than `limit` cut to its first `limit` characters, and marked `cut`; others as they are. */
export function cutMessage(m: NeutralMessage, limit = PART_LIMIT): NeutralMessage {
  let changed = false;
  const content = m.content.map((b, i) => {
    const c = cutBlock(b, String(i), limit);
    changed ||= c !== b;
    return c;
  });
  return changed ? { ...m, content } : m;
}

function cutBlock(b: Block, part: string, limit: number): Block {
  if (b.type === 'tool_result' && Array.isArray(b.content)) {
    const content = b.content.map((x, j) => cutBlock(x, `${part}.${j}`, limit));
    return content.some((x, j) => x !== (b.content as Block[])[j]) ? { ...b, content } : b;
  }
  const text = partText(b);
  if (text === null || text.length <= (b.type === 'image' ? Math.max(limit, IMAGE_LIMIT) : limit)) return b;
  const cut: Cut = { part, length: text.length, bytes: Buffer.byteLength(text) };
  const field = b.type === 'text' || b.type === 'thinking' ? 'text' : b.type === 'tool_call' ? 'input' : b.type === 'tool_result' ? 'content' : 'data';
  // a piece of an image draws nothing: the page loads it whole when asked
  const out = { ...b, [field]: b.type === 'image' ? '' : prefix(text, limit), cut } as unknown as Block;
  // a call's view repeats its arguments: its long strings go out cut too (`cut: true` in the view)
  const view = (b as { view?: unknown }).view;
  return view === undefined ? out : ({ ...out, view: { ...(cutStrings(view, limit) as object), cut: true } } as unknown as Block);
}

/** A JSON value with each string longer than `limit` cut to its first `limit` characters. */
function cutStrings(v: unknown, limit: number): unknown {
  if (typeof v === 'string') return v.length > limit ? prefix(v, limit) : v;
  if (Array.isArray(v)) return v.map((x) => cutStrings(x, limit));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cutStrings(x, limit)]));
  return v;
}

/** The text a part is paged through: its text, a tool call's arguments as the page shows them, a result's string, an image's base64. */
function partText(b: Block): string | null {
  switch (b.type) {
    case 'text':
    case 'thinking':
      return b.text;
    case 'tool_call':
      return typeof b.input === 'string' ? b.input : JSON.stringify(b.input, null, 2);
    case 'tool_result':
      return typeof b.content === 'string' ? b.content : null;
    case 'image':
      return b.data ?? null;
  }
}

/** The first `n` characters, one fewer when the n-th starts a surrogate pair (a piece is whole characters). */
function prefix(text: string, n: number): string {
  return text.slice(0, pieceEnd(text, n));
}

function pieceEnd(text: string, end: number): number {
  if (end >= text.length) return text.length;
  const c = text.charCodeAt(end - 1);
  return c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}

/** Characters [offset, offset + limit) of a message's part (as `cut.part` names it), whole characters; where they start, and the part's length. */
export function partPiece(m: NeutralMessage, part: string, offset: number, limit: number): { offset: number; text: string; length: number } {
  const path = /^(\d{1,6})(?:\.(\d{1,6}))?$/.exec(part);
  if (!path) throw new UsageError(`part takes a block index (3, or 3.1 in a tool result), not '${part}'`);
  let b: Block | undefined = m.content[Number(path[1])];
  if (path[2] !== undefined) b = b?.type === 'tool_result' && Array.isArray(b.content) ? b.content[Number(path[2])] : undefined;
  const text = b && (b.type !== 'tool_result' || path[2] === undefined) ? partText(b) : null;
  if (text === null) throw new UsageError(`the message has no part ${part}`);
  if (offset > text.length) throw new UsageError(`offset ${offset} is past the part's end (${text.length})`);
  // a piece starts on a whole character: an offset inside a surrogate pair starts at the pair
  const start = offset > 0 && pieceEnd(text, offset) < offset ? offset - 1 : offset;
  return { offset: start, text: text.slice(start, pieceEnd(text, start + Math.min(limit, PIECE_LIMIT))), length: text.length };
}
