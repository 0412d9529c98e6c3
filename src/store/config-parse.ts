// git's config syntax, as git's own parser (config.c) reads it: what git refuses is refused here, and
// what it accepts (quoted `;` and `#`, escapes, `\` continued lines, keys after a header) is read the same.

export interface ParsedConfig {
  /** `section[.subsection].key` (section and key in lower case) and value, in file order; a key without `=` is `true` */
  entries: [key: string, value: string][];
  /** the first line git would refuse, and its text */
  bad?: { line: number; text: string };
}

const SECTION_CHAR = /[A-Za-z0-9.-]/;
const KEY_START = /[A-Za-z]/;
const KEY_CHAR = /[A-Za-z0-9-]/;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', b: '\b', '"': '"', '\\': '\\' };

export function parseGitConfig(source: string): ParsedConfig {
  const text = source.replace(/\r\n/g, '\n'); // git reads CRLF as LF
  const entries: [string, string][] = [];
  const lines = text.split('\n');
  let i = 0; // position in text
  let line = 1;
  let section: string | null = null;
  const fail = (): ParsedConfig => ({ entries, bad: { line, text: (lines[line - 1] ?? '').trim() } });
  const at = (k = 0) => text[i + k];
  const space = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r'; // git's isspace: not \v or \f
  if (text.charCodeAt(0) === 0xfeff) i++; // git skips a UTF-8 byte order mark
  while (i < text.length) {
    const c = at();
    if (c === '\n') {
      line++;
      i++;
    } else if (space(c)) i++;
    else if (c === '#' || c === ';') {
      while (i < text.length && at() !== '\n') i++;
    } else if (c === '[') {
      i++;
      let name = '';
      while (i < text.length && SECTION_CHAR.test(at())) name += text[i++];
      if (name === '') return fail();
      let sub: string | undefined;
      if (space(at())) {
        while (space(at())) i++;
        if (at() !== '"') return fail();
        i++;
        sub = '';
        for (;;) {
          const d = at();
          if (d === undefined || d === '\n') return fail();
          i++;
          if (d === '"') break;
          if (d === '\\') {
            const e = at();
            if (e === undefined || e === '\n') return fail();
            sub += e;
            i++;
          } else sub += d;
        }
      }
      if (at() !== ']') return fail();
      i++;
      section = name.toLowerCase() + (sub === undefined ? '' : `.${sub}`);
    } else if (KEY_START.test(c)) {
      if (section === null) return fail();
      let key = '';
      while (i < text.length && KEY_CHAR.test(at())) key += text[i++];
      while (at() === ' ' || at() === '\t') i++;
      const full = `${section}.${key.toLowerCase()}`;
      const end = at();
      // git: a key alone ends its line (no comment after it)
      if (end === undefined || end === '\n') {
        entries.push([full, 'true']);
        continue;
      }
      if (end !== '=') return fail();
      i++;
      const value = readValue();
      if (value === null) return fail();
      entries.push([full, value]);
    } else return fail();
  }
  return { entries };

  /** A value up to its line's end (or a continued line's): quotes, escapes, comments and trailing space as git reads them. */
  function readValue(): string | null {
    let out = '';
    let quoted = false;
    let pending = ''; // unquoted whitespace: kept only when more value follows
    while (space(at())) i++;
    for (;;) {
      const c = at();
      if (c === undefined || c === '\n') {
        if (quoted) return null;
        return out;
      }
      i++;
      if (!quoted && (c === '#' || c === ';')) {
        while (i < text.length && at() !== '\n') i++;
        return out;
      }
      if (!quoted && space(c)) {
        pending += ' '; // git turns each unquoted blank into a space
        continue;
      }
      if (c === '\\') {
        const e = at();
        if (e === '\n') {
          i++;
          line++;
          continue;
        }
        if (e === undefined || ESCAPES[e] === undefined) return null;
        out += pending + ESCAPES[e];
        pending = '';
        i++;
        continue;
      }
      if (c === '"') {
        out += pending;
        pending = '';
        quoted = !quoted;
        continue;
      }
      out += pending + c;
      pending = '';
    }
  }
}

/** The values of a parsed config, the last one of each key winning (git's rule for single-valued keys). */
export function lastValues(entries: readonly [string, string][]): Map<string, string> {
  return new Map(entries);
}
