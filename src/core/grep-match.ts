// Matching text the way `ctx grep` does, pure: the pattern, the literal every match must hold (a
// prefilter over raw artifact bytes), the text of each neutral block, and the snippet of a match.
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { resultText, type Block, type NeutralMessage } from './neutral.js';
import { UsageError } from '../errors/index.js';

/** A compiled pattern: where its first match in a text is, in UTF-16 units (string indices). */
export interface GrepMatcher {
  find(text: string): [start: number, end: number] | null;
}

/** What is not a word character (grep -w's: a letter, a digit or _). */
const NOT_WORD = '[^\\p{L}\\p{N}_]';

/** RE2's metacharacters: a pattern without them is a plain string. */
const META = /[\\.+*?()|[\]{}^$]/;

/**
 * The pattern, matched in time linear in the text (RE2's dialect, through re2js: a pattern can never
 * backtrack for ages); a bad one, or one RE2 cannot run (backreferences, lookaround), is a usage error (exit 2).
 */
export function grepPattern(o: { pattern: string; ignoreCase?: boolean; fixed?: boolean; word?: boolean }): GrepMatcher {
  if (o.pattern === '') throw new UsageError('grep: the pattern is empty');
  const plain = o.fixed || !META.test(o.pattern);
  if (plain && !o.word) return plainMatcher(o.pattern, o.ignoreCase ?? false);
  const source = plain ? RE2JS.quote(o.pattern) : o.pattern;
  let re: RE2JS;
  try {
    // the pattern alone first: an error names it as typed (not `(?i)(` or the word edges), and `a)(b` cannot close the edges' group
    RE2JS.compile(source);
    // a whole word, as grep -w: the match is group 1, with no letter, digit or _ on either side
    re = RE2JS.compile(o.word ? `(?:^|${NOT_WORD})(${source})(?:${NOT_WORD}|$)` : source, o.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    if (!(e instanceof RE2JSSyntaxException)) throw e;
    const what = unsupported(o.pattern);
    if (what) throw new UsageError(`grep: ${what} not supported: ctx grep takes RE2 syntax, which matches in linear time`);
    throw new UsageError(`grep: bad regular expression: ${e.message.replace(/^error parsing regexp: /, '')}`);
  }
  return {
    find(text) {
      // the DFA says whether there is a match, fast; only then is it placed (a slower pass)
      if (!re.test(text)) return null;
      const m = re.matcher(text);
      const g = o.word ? 1 : 0;
      return m.find() ? [m.start(g), m.end(g)] : null;
    },
  };
}

/** A plain string: found by indexOf, or ignoring case as Unicode folds it (RE2 does too: K matches the Kelvin sign). */
function plainMatcher(pattern: string, ignoreCase: boolean): GrepMatcher {
  if (!ignoreCase) {
    return {
      find(text) {
        const at = text.indexOf(pattern);
        return at < 0 ? null : [at, at + pattern.length];
      },
    };
  }
  // a string alone cannot backtrack: at most its length in steps per character of the text
  const re = new RegExp(escapeRegExp(pattern), 'iu');
  return {
    find(text) {
      const m = re.exec(text);
      return m ? [m.index, m.index + m[0].length] : null;
    },
  };
}

/** The construct RE2 cannot run in a pattern it refused, named for the error; null when it is not one of them. */
function unsupported(p: string): string | null {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') {
      const ref = /^\\([1-9]|k<[^>]*>)/.exec(p.slice(i));
      if (ref) return `backreferences (${ref[0]}) are`;
      i++;
    } else if (p[i] === '[') i = classEnd(p, i);
    else if (p[i] === '(') {
      const look = /^\(\?(<?[=!])/.exec(p.slice(i));
      if (look) return `${look[1].startsWith('<') ? 'lookbehind' : 'lookahead'} (?${look[1]}…) is`;
    }
  }
  return null;
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
export function requiredLiteral(pattern: string, fixed?: boolean, ignoreCase?: boolean): string | null {
  let runs = fixed ? pattern.split(UNSAFE) : regexRuns(pattern);
  // ignoring case, k and s also match letters spelled otherwise in the bytes (the Kelvin sign, the long s)
  if (ignoreCase) runs = runs?.flatMap((r) => r.split(/[ks]/i)) ?? null;
  const best = (runs ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  return best.length >= 3 ? best : null;
}

/** The runs of plain characters every match of a regular expression holds; null when it is too clever to tell. */
function regexRuns(p: string): string[] | null {
  // an alternation or a group could make any run optional; escapes with a payload (\x41, \pL, \Q…\E) spell other text
  if (/[|()]/.test(p.replace(/\\./g, '')) || /\\[xucpPkQ0-9]/.test(p)) return null;
  const runs: string[] = [];
  let run = '';
  const cut = () => (runs.push(run), (run = ''));
  for (let i = 0; i < p.length; i++) {
    let c = p[i];
    let plain = SAFE.test(c) && !/[.*+?^$[\]{}]/.test(c);
    if (c === '\\') {
      c = p[++i] ?? '';
      plain = /[.*+?^${}[\]\\/-]/.test(c) && SAFE.test(c);
    } else if (c === '[') i = classEnd(p, i);
    else if (c === '{') i = skipTo(p, i, '}');
    const next = p[i + 1];
    if (!plain || next === '?' || next === '*' || next === '{') cut();
    else if (next === '+') (run += c), cut();
    else run += c;
  }
  cut();
  return runs;
}

/** Past a quantifier's braces: the index of its closing brace. */
function skipTo(p: string, i: number, close: string): number {
  for (let j = i + 1; j < p.length; j++) {
    if (p[j] === '\\') j++;
    else if (p[j] === close) return j;
  }
  return p.length;
}

/** Past a character class (`[^]a]`, `[[:alpha:]x]`, `[\]]`): the index of its closing bracket. */
function classEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  for (; j < p.length; j++) {
    if (p[j] === '\\') j++;
    else if (p.startsWith('[:', j)) j = Math.max(j, p.indexOf(':]', j + 2) + 1);
    else if (p[j] === ']') return j;
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

/** Whether an artifact's bytes may hold a tool call on a file named `name` (files reads only those; the search index records only those). */
export const fileNamed = (name: string): ((bytes: Uint8Array) => boolean) => rawCheck(requiredLiteral(name, true), false);

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
export function matchMessage(m: NeutralMessage, re: GrepMatcher, role?: string): { role: string; snippet: string } | null {
  for (const b of m.content) {
    const blockRole = b.type === 'tool_call' || b.type === 'tool_result' ? 'tool' : m.role;
    if (role !== undefined && blockRole !== role) continue;
    const text = blockText(b);
    if (text === null) continue;
    const found = re.find(text);
    if (found) return { role: blockRole, snippet: snippet(text, ...found) };
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
