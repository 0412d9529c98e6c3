// Matching text the way `ctx grep` does, pure: the pattern, the literal every match must hold (a
// prefilter over raw artifact bytes), the text of each neutral block, and the snippet of a match.
import { resultText, type Block, type NeutralMessage } from './neutral.js';
import { UsageError } from '../errors/index.js';

/** The pattern as a regular expression; a bad one is a usage error (exit 2). */
export function grepPattern(o: { pattern: string; ignoreCase?: boolean; fixed?: boolean }): RegExp {
  if (o.pattern === '') throw new UsageError('grep: the pattern is empty');
  const source = o.fixed ? escapeRegExp(o.pattern) : o.pattern;
  try {
    return new RegExp(source, o.ignoreCase ? 'i' : '');
  } catch (e) {
    throw new UsageError(`grep: bad regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// characters every JSON writer of the stored formats (and CBOR) keeps as they are: a literal of them
// found in a block's text is found in the artifact's bytes too
const SAFE_CLASS = "A-Za-z0-9 _\\-.,:;!?#$%()*+=@^|~{}[\\]'/&<>`";
const SAFE = new RegExp(`[${SAFE_CLASS}]`);
const UNSAFE = new RegExp(`[^${SAFE_CLASS}]`);

/**
 * A literal every match contains, spelled with characters stored as they are; null when the pattern
 * has none worth looking for (then every artifact is parsed).
 */
export function requiredLiteral(pattern: string, fixed?: boolean): string | null {
  const runs = fixed ? pattern.split(UNSAFE) : regexRuns(pattern);
  const best = (runs ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  return best.length >= 3 ? best : null;
}

/** The runs of plain characters every match of a regular expression holds; null when it is too clever to tell. */
function regexRuns(p: string): string[] | null {
  // an alternation or a group could make any run optional; escapes with a payload (\x41, \u, \1, \k, \p) spell other text
  if (/[|()]/.test(p.replace(/\\./g, '')) || /\\[xucpPk0-9]/.test(p)) return null;
  const runs: string[] = [];
  let run = '';
  const cut = () => (runs.push(run), (run = ''));
  for (let i = 0; i < p.length; i++) {
    let c = p[i];
    let plain = SAFE.test(c) && !/[.*+?^$[\]{}]/.test(c);
    if (c === '\\') {
      c = p[++i] ?? '';
      plain = /[.*+?^${}[\]\\/-]/.test(c) && SAFE.test(c);
    } else if (c === '[') i = skipTo(p, i, ']');
    else if (c === '{') i = skipTo(p, i, '}');
    const next = p[i + 1];
    if (!plain || next === '?' || next === '*' || next === '{') cut();
    else if (next === '+') (run += c), cut();
    else run += c;
  }
  cut();
  return runs;
}

/** Past a class or a quantifier's braces: the index of its closing character. */
function skipTo(p: string, i: number, close: string): number {
  for (let j = i + 1; j < p.length; j++) {
    if (p[j] === '\\') j++;
    else if (p[j] === close && (close !== ']' || j > i + 1)) return j;
  }
  return p.length;
}

/** Whether raw artifact bytes may hold a match: the required literal is among them. */
export function rawCheck(literal: string | null, ignoreCase: boolean): (bytes: Uint8Array) => boolean {
  if (literal === null) return () => true;
  if (!ignoreCase) {
    const needle = Buffer.from(literal, 'latin1');
    return (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle) >= 0;
  }
  const re = new RegExp(escapeRegExp(literal), 'i');
  return (bytes) => re.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
}

/** The text a block is searched in, and the role it counts as. */
export function blockText(b: Block): string | null {
  switch (b.type) {
    case 'text':
    case 'thinking':
      return b.text;
    case 'tool_call':
      return [b.name, ...leaves(b.input)].join('\n');
    case 'tool_result':
      return readable(resultText(b.content));
    default:
      return null;
  }
}

/** A result that is a JSON object (Codex's `{"output": …, "metadata": …}`) as its values, else as it is. */
function readable(text: string): string {
  if (!text.startsWith('{')) return text;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? leaves(v).join('\n') : text;
  } catch {
    return text;
  }
}

/** A tool call's arguments as their string and number values, in order (what a person searches for). */
function leaves(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (typeof v === 'number' || typeof v === 'boolean') return [String(v)];
  if (Array.isArray(v)) return v.flatMap(leaves);
  if (v && typeof v === 'object') return Object.values(v).flatMap(leaves);
  return [];
}

/** The first match in a message, per block, among blocks of `role` (when given). */
export function matchMessage(m: NeutralMessage, re: RegExp, role?: string): { role: string; snippet: string } | null {
  for (const b of m.content) {
    const blockRole = b.type === 'tool_call' || b.type === 'tool_result' ? 'tool' : m.role;
    if (role !== undefined && blockRole !== role) continue;
    const text = blockText(b);
    if (text === null) continue;
    const found = re.exec(text);
    if (found) return { role: blockRole, snippet: snippet(text, found.index, found.index + found[0].length) };
  }
  return null;
}

const CONTEXT = 40;

/** The match with up to 40 characters either side, whitespace runs as one space, control characters as U+FFFD, cuts marked `…`. */
export function snippet(text: string, start: number, end: number): string {
  const from = Math.max(0, start - CONTEXT);
  const to = Math.min(text.length, Math.max(end, start + 1) + CONTEXT, start + 400);
  // one line, and inert on a terminal: a tool's output may hold escape sequences
  const flat = (s: string) => s.replace(/\s+/g, ' ').replace(/[\x00-\x1f\x7f-\x9f]/g, '\ufffd');
  return `${from > 0 ? '…' : ''}${flat(text.slice(from, to)).trim()}${to < text.length ? '…' : ''}`;
}
