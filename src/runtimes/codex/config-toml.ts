// Codex's config.toml read with a TOML parser (smol-toml), and edited by whole top-level statements:
// the parser says where each statement ends (a `[` inside a multi-line string or array is not a
// table), and a re-parse of the result proves that only the key ctx meant to change has changed.
import { parse, TomlError } from 'smol-toml';
import { BadInputError } from '../../errors/index.js';

export type TomlTable = Record<string, unknown>;

const OPTIONS = { integersAsBigInt: 'asNeeded' } as const;

/** The document's value; a file smol-toml cannot read is refused with its line and column. */
export function parseToml(path: string, text: string): TomlTable {
  try {
    return parse(text, OPTIONS) as TomlTable;
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const why = e.message.split('\n')[0].replace(/^Invalid TOML document: /, '');
    throw new BadInputError(`${path}: not TOML (line ${e.line}, column ${e.column}: ${why}); nothing changed`);
  }
}

function parses(text: string): TomlTable | null {
  try {
    return parse(text, OPTIONS) as TomlTable;
  } catch {
    return null;
  }
}

/** One top-level statement (or a blank or comment line): lines [from, to), and the keys it sets alone. */
export interface Statement {
  from: number;
  to: number;
  keys: TomlTable;
}

/**
 * The statements before the first table header, and that header's line (`lines.length` when there is
 * none). `lines` keep their line ends. Each statement is the fewest whole lines that parse on their own.
 */
export function topLevel(lines: string[]): { statements: Statement[]; header: number } {
  const statements: Statement[] = [];
  let from = 0;
  while (from < lines.length) {
    if (lines[from].trimStart().startsWith('[')) return { statements, header: from }; // at a statement's start: a table
    let to = from + 1;
    let keys = parses(lines.slice(from, to).join(''));
    while (!keys && to < lines.length) keys = parses(lines.slice(from, ++to).join(''));
    if (!keys) throw new Error(`no TOML statement starts at line ${from + 1}`); // the whole file parsed: cannot happen
    statements.push({ from, to, keys });
    from = to;
  }
  return { statements, header: lines.length };
}

/** Lines with their ends, joined back with `join('')`. */
export const splitLines = (text: string): string[] => text.split(/(?<=\n)/);

/** Deep equality of parsed TOML values: tables by keys in any order, dates by what they print. */
export function sameToml(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.constructor === b.constructor && String(a.toISOString()) === String(b.toISOString());
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameToml(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const [ka, kb] = [Object.keys(a), Object.keys(b)];
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameToml((a as TomlTable)[k], (b as TomlTable)[k]));
  }
  return Object.is(a, b);
}
