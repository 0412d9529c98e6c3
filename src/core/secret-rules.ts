// Secret scanning (DESIGN.md §9): the rules as data, and a pure scan over artifact bytes.
// Own rules rather than a package: secretlint's recommended preset (the maintained JS rule set)
// flags placeholders such as `ghp_xxxx…`, has no JWT or high-entropy rules, and costs ~50 ms to
// load, half the hook's budget. Every rule here is ASCII, so bytes are scanned as latin1: one
// char per byte, and match offsets are byte offsets.

export interface SecretRule {
  id: string;
  description: string;
  /** a global regex (flag `d`); the secret is capture group `group` (default: the whole match) */
  pattern: RegExp;
  group?: number;
  /** minimum Shannon entropy, bits per char, of the secret: placeholders fall below it */
  minEntropy?: number;
  /** a further check of the secret's shape */
  check?: (secret: string) => boolean;
  /**
   * Strings every match holds one of, lower-case ones looked for in the text lower-cased (as a pattern
   * that ignores case needs): text holding none is not run through the pattern, whose native code V8
   * would otherwise compile on every hook.
   */
  keywords?: readonly string[];
}

export interface Finding {
  rule: string;
  /** byte offset in the scanned bytes (char offset when a string was scanned) */
  offset: number;
  length: number;
}

/** Shannon entropy in bits per char. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

// What documentation, fixtures and prompts write where a secret would go.
const PLACEHOLDER = /x{4}|\.{3}|\*{3}|<[^>]*>|\$\{|\{\{|%s|example|sample|placeholder|your[_-]|dummy|redacted|changeme|0123456789|1234567890|abcdefghij/i;
export const isPlaceholder = (s: string): boolean => PLACEHOLDER.test(s);

const hasDigitAndLetter = (s: string) => /\d/.test(s) && /[A-Za-z]/.test(s);
const mixedCase = (s: string) => /[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s);

/** A JWT's header decodes to a JSON object with `alg`. */
function jwtHeaderHasAlg(token: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8')) as unknown;
    return header !== null && typeof header === 'object' && typeof (header as { alg?: unknown }).alg === 'string';
  } catch {
    return false;
  }
}

// Before the value: an optional quote (escaped once or twice inside JSON strings), `=` `:` `:=` `=>`.
const ASSIGN = String.raw`\\*["']?\s*(?::=|=>|[:=])\s*\\*["']?`;
// A value stops at quotes, backslashes (JSON escapes), whitespace and code punctuation.
const VALUE = String.raw`[^\s"'\\\x60,;<>(){}\[\]]`;
// A token starts after a non-token char, or after an escape (`\nghp_…`: a newline in a JSON string).
const L = String.raw`(?<!(?<!\\)[A-Za-z0-9_-])`;
const R = String.raw`(?![A-Za-z0-9_-])`;

type RuleSource = Omit<SecretRule, 'pattern'> & { pattern: () => RegExp };
/** Each rule's pattern made on first use: a hook's text needs few of them, and parsing them all cost ~7 M instructions. */
function lazyPatterns(rules: RuleSource[]): SecretRule[] {
  return rules.map(({ pattern: make, ...rule }) => {
    let re: RegExp | undefined;
    return Object.defineProperty(rule, 'pattern', { get: () => (re ??= make()), enumerable: true }) as SecretRule;
  });
}

/** In order of precedence: where two findings overlap, the one that starts first (then the earlier rule) wins. */
export const SECRET_RULES: readonly SecretRule[] = lazyPatterns([
  {
    id: 'private-key',
    keywords: ['PRIVATE KEY'],
    description: 'a PEM private key block (RSA, EC, DSA, OpenSSH, PGP, PKCS#8), also inside JSON strings',
    pattern: () =>
      /-----BEGIN[ A-Z0-9]{0,20}PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s:,-]|\\[nr]|\\\\[nr]){64,20000}?-----END[ A-Z0-9]{0,20}PRIVATE KEY(?: BLOCK)?-----/dg,
    check: (s) => (s.replace(/\\[nr]|-----[^-]+-----|[^A-Za-z0-9+/]/g, '').length >= 64),
    minEntropy: 4,
  },
  {
    id: 'aws-access-key-id',
    keywords: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    description: 'AWS access key id (AKIA…, ASIA…)',
    pattern: () =>
      /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Z0-9])/dg,
    minEntropy: 3,
  },
  {
    id: 'aws-secret-access-key',
    keywords: ['secret'],
    description: 'AWS secret access key in assignment context',
    pattern: () =>
      new RegExp(`(?:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)${ASSIGN}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`, 'dgi'),
    group: 1,
    minEntropy: 4,
  },
  {
    id: 'gcp-api-key',
    keywords: ['AIza'],
    description: 'Google Cloud / Firebase API key (AIza…)',
    pattern: () =>
      new RegExp(`${L}AIza[0-9A-Za-z_-]{35}${R}`, 'dg'),
    minEntropy: 3.5,
  },
  {
    id: 'gcp-service-account-key-id',
    keywords: ['private_key_id'],
    description: 'private_key_id of a GCP service-account key file',
    pattern: () =>
      new RegExp(`private_key_id${ASSIGN}([0-9a-f]{40})(?![0-9a-f])`, 'dg'),
    group: 1,
    minEntropy: 3,
  },
  {
    id: 'azure-storage-key',
    keywords: ['AccountKey=', 'SharedAccessKey='],
    description: 'Azure storage account key or shared access key in a connection string',
    pattern: () =>
      /(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{40,88}={0,2})/dg,
    group: 1,
    minEntropy: 4,
  },
  {
    id: 'github-token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    description: 'GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)',
    pattern: () =>
      new RegExp(`${L}(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{50,240})${R}`, 'dg'),
    minEntropy: 3.5,
  },
  {
    id: 'gitlab-token',
    keywords: ['glpat-'],
    description: 'GitLab personal access token (glpat-)',
    pattern: () =>
      new RegExp(`${L}glpat-[A-Za-z0-9_-]{20,}${R}`, 'dg'),
    minEntropy: 3.5,
  },
  {
    id: 'slack-token',
    keywords: ['xoxb-', 'xoxa-', 'xoxp-', 'xoxr-', 'xoxs-'],
    description: 'Slack token (xoxb-, xoxa-, xoxp-, xoxr-, xoxs-)',
    pattern: () =>
      new RegExp(`${L}xox[baprs]-[A-Za-z0-9-]{10,}${R}`, 'dg'),
    minEntropy: 3,
    check: hasDigitAndLetter,
  },
  {
    id: 'slack-webhook',
    keywords: ['hooks.slack.com/services/'],
    description: 'Slack incoming-webhook URL',
    pattern: () =>
      /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{20,}/dg,
    minEntropy: 3.5,
  },
  {
    id: 'anthropic-api-key',
    keywords: ['sk-ant-'],
    description: 'Anthropic API key (sk-ant-…)',
    pattern: () =>
      new RegExp(`${L}sk-ant-[A-Za-z0-9_-]{32,}${R}`, 'dg'),
    minEntropy: 3.5,
  },
  {
    id: 'openai-api-key',
    keywords: ['sk-'],
    description: 'OpenAI API key (sk-…, sk-proj-…, sk-svcacct-…)',
    pattern: () =>
      new RegExp(`${L}sk-(?!ant-)(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{32,})${R}`, 'dg'),
    minEntropy: 3.5,
    check: (s) => mixedCase(s.slice(3)),
  },
  {
    id: 'stripe-secret-key',
    keywords: ['k_live_'],
    description: 'Stripe live secret or restricted key (sk_live_, rk_live_)',
    pattern: () =>
      new RegExp(`${L}[sr]k_live_[A-Za-z0-9]{20,}${R}`, 'dg'),
    minEntropy: 3.5,
  },
  {
    id: 'jwt',
    keywords: ['eyJ'],
    description: 'JSON Web Token: three base64url segments, the header a JSON object with alg',
    pattern: () =>
      new RegExp(`${L}eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{16,}${R}`, 'dg'),
    minEntropy: 3.5,
    check: jwtHeaderHasAlg,
  },
  {
    id: 'url-credentials',
    keywords: ['://'],
    description: 'a password in a URL (scheme://user:password@host)',
    pattern: () =>
      /\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}:\/\/[^\s:/@"'\\<>]{1,64}:([^\s/@"'\\<>]{6,128})@[A-Za-z0-9][A-Za-z0-9.-]*/dg,
    group: 1,
    minEntropy: 2.5,
    check: (s) => !/^(?:pass(?:word)?|passwd|secret|token|admin|root|guest|postgres|mysql|redis|user(?:name)?)\d*$/i.test(s),
  },
  {
    id: 'secret-assignment',
    keywords: ['passw', 'pwd', 'secret', 'token', 'key', 'credential', 'authorization'],
    description: 'a high-entropy value assigned to a password, secret, token or key name',
    pattern: () =>
      new RegExp(
      `(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|credentials?|authorization)${ASSIGN}(?:(?:Bearer|Basic|Token)\\s+)?(${VALUE}{20,})`,
      'dgi',
    ),
    group: 1,
    minEntropy: 3.5,
    check: (s) => hasDigitAndLetter(s) && !/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(s),
  },
]);

type Ordered = Finding & { order: number };

/** From this many chars a text's keywords are found in one pass per case, not one pass per keyword. */
const KEYWORD_PASS = 64 * 1024;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * Which of `keys` `text` holds, in one regex pass over it: the leftmost keyword found is set aside and the
 * search goes on from where it starts with the others (so a keyword starting at the same place is found too).
 */
function keywordsIn(text: string, keys: readonly string[], into: Set<string>): void {
  let left = keys;
  for (let at = 0; left.length; ) {
    const re = new RegExp(left.map(escapeRegExp).join('|'), 'g');
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return;
    into.add(m[0]);
    at = m.index;
    left = left.filter((k) => k !== m[0]);
  }
}

/** Every match of every rule in `text` as it stands, overlaps included. */
function matchRules(text: string, rules: readonly SecretRule[]): Ordered[] {
  const found: Ordered[] = [];
  let lower: string | undefined;
  let held: Set<string> | undefined;
  const holds =
    text.length < KEYWORD_PASS
      ? (k: string) => (k === k.toLowerCase() ? (lower ??= text.toLowerCase()) : text).includes(k)
      : (k: string) => {
          if (!held) {
            const keys = [...new Set(rules.flatMap((r) => r.keywords ?? []))];
            held = new Set();
            keywordsIn(text, keys.filter((x) => x !== x.toLowerCase()), held);
            keywordsIn((lower ??= text.toLowerCase()), keys.filter((x) => x === x.toLowerCase()), held);
          }
          return held.has(k);
        };
  rules.forEach((rule, order) => {
    if (rule.keywords && !rule.keywords.some(holds)) return;
    rule.pattern.lastIndex = 0;
    for (const m of text.matchAll(rule.pattern)) {
      const span = m.indices?.[rule.group ?? 0];
      if (!span) continue;
      const secret = text.slice(span[0], span[1]);
      if (isPlaceholder(secret)) continue;
      if (rule.minEntropy !== undefined && shannonEntropy(secret) < rule.minEntropy) continue;
      if (rule.check && !rule.check(secret)) continue;
      found.push({ rule: rule.id, offset: span[0], length: span[1] - span[0], order });
    }
  });
  return found;
}

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
// Only these escapes hide a secret from the scan of the text as written (escaped newlines and tabs
// are token boundaries there, quotes are allowed around assignments): lines without them are not decoded.
const UNICODE_OR_SLASH = /\\[u/]/g;
/** Escapes are decoded this many times over: JSON inside a JSON string, and once more. */
const MAX_ESCAPE_DEPTH = 3;

/**
 * The lines of `text` that hold a `\u` or `\/` escape, with their JSON escapes decoded (`\u0041` → `A`,
 * `\/` → `/`, `\n` → newline), joined by newlines; `at[i]` is the offset in `text` where the
 * decoded char i starts (`at[length]`: where the last one ends), so a span of the decoded text is
 * a span of whole escapes in `text`. Null when no line holds an escape.
 */
export function decodeEscapes(text: string): { text: string; at: Int32Array } | null {
  const parts: string[] = [];
  let at = new Int32Array(1024);
  let n = 0; // decoded chars so far
  const put = (s: string, from: number, step: number) => {
    if (n + s.length + 1 > at.length) {
      const grown = new Int32Array(Math.max(at.length * 2, n + s.length + 1));
      grown.set(at.subarray(0, n));
      at = grown;
    }
    parts.push(s);
    for (let k = 0; k < s.length; k++) at[n++] = from + k * step;
  };
  let decoded = false;
  let prevEnd = -1; // where the last decoded line ends in `text`
  let escape = -2;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    // the next such escape, searched for again only once the lines pass it
    if (escape !== -1 && escape < start) {
      UNICODE_OR_SLASH.lastIndex = start;
      escape = UNICODE_OR_SLASH.exec(text)?.index ?? -1;
    }
    if (escape === -1) break;
    let slash = text.indexOf('\\', start);
    if (escape < end) {
      if (prevEnd >= 0) put('\n', prevEnd, 0);
      let i = start;
      while (slash >= 0 && slash < end) {
        if (slash > i) put(text.slice(i, slash), i, 1);
        const next = text[slash + 1];
        const hex = next === 'u' ? text.slice(slash + 2, slash + 6) : '';
        if (hex.length === 4 && /^[0-9a-fA-F]{4}$/.test(hex)) {
          put(String.fromCharCode(parseInt(hex, 16)), slash, 0);
          i = slash + 6;
          decoded = true;
        } else if (slash + 1 < end && SIMPLE_ESCAPES[next] !== undefined) {
          put(SIMPLE_ESCAPES[next], slash, 0);
          i = slash + 2;
          decoded = true;
        } else {
          put('\\', slash, 0);
          i = slash + 1;
        }
        slash = text.indexOf('\\', i);
      }
      if (end > i) put(text.slice(i, end), i, 1);
      prevEnd = end;
    }
    start = end + 1;
  }
  if (!decoded) return null;
  const out = at.subarray(0, n + 1);
  out[n] = prevEnd;
  return { text: parts.join(''), at: out };
}

/** Findings in the escape-decoded text, with spans in `text` (whole escapes), down to MAX_ESCAPE_DEPTH levels. */
function escapedFindings(text: string, rules: readonly SecretRule[], depth: number): Ordered[] {
  const d = decodeEscapes(text);
  if (!d) return [];
  const found = matchRules(d.text, rules);
  if (depth + 1 < MAX_ESCAPE_DEPTH && d.text.includes('\\')) found.push(...escapedFindings(d.text, rules, depth + 1));
  return found.map((f) => ({ ...f, offset: d.at[f.offset], length: d.at[f.offset + f.length] - d.at[f.offset] }));
}

/**
 * Every secret in `text`, by position; overlapping findings keep the first. Lines with backslashes
 * are also scanned with their JSON escapes decoded (`ghp\u005f…`, `https:\/\/…`, `\nAKIA…`), and
 * such a finding spans the escapes as written, so replacing it keeps a JSON string a JSON string.
 */
export function findSecrets(text: string, rules: readonly SecretRule[] = SECRET_RULES): Finding[] {
  const found = matchRules(text, rules);
  if (text.includes('\\')) found.push(...escapedFindings(text, rules, 0));
  return firstOfOverlaps(found);
}

/** Findings by position; where two overlap, the one that starts first (then the earlier rule) stays. */
function firstOfOverlaps(found: Ordered[]): Finding[] {
  found.sort((a, b) => a.offset - b.offset || a.order - b.order);
  const out: Finding[] = [];
  let end = -1;
  for (const f of found) {
    if (f.offset < end) continue;
    out.push({ rule: f.rule, offset: f.offset, length: f.length });
    end = f.offset + f.length;
  }
  return out;
}

/** Bytes a piece of the scan holds as text (it grows to the next place no match can span). */
const PIECE = 256 * 1024;
/** A private key's match spans at most this many chars after its BEGIN (header, 20,000 body units of up to 3 chars, footer). */
const KEY_SPAN = 65536;
const isAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const BEFORE_VALUE = /(?:bearer|basic|token)$/i;

/**
 * Whether no match of any rule can hold the space at `p`: only a private key block and the
 * whitespace of an assignment (`key = `, `Bearer `) hold spaces, and a space between two letters
 * or digits is in neither unless it follows Bearer/Basic/Token or a BEGIN is near enough before it.
 * A space is no token char and starts no match, so lookarounds see it as they see a string's end.
 */
function safeCut(bytes: Buffer, p: number): boolean {
  if (p < 6 || p + 1 >= bytes.length || bytes[p] !== 0x20 || !isAlnum(bytes[p - 1]) || !isAlnum(bytes[p + 1])) return false;
  if (BEFORE_VALUE.test(bytes.toString('latin1', p - 6, p))) return false;
  const begin = bytes.lastIndexOf('BEGIN', p, 'latin1');
  return begin === -1 || begin < p - KEY_SPAN;
}

/** Where the piece starting at `from` ends: the first safe space at least `size` bytes on, else the end. */
function pieceEnd(bytes: Buffer, from: number, size: number): number {
  for (let p = bytes.indexOf(0x20, from + size); p !== -1; p = bytes.indexOf(0x20, p + 1)) if (safeCut(bytes, p)) return p;
  return bytes.length;
}

/** The lines `decodeEscapes` decodes (a `\u` or `\/` in them), joined by newlines, with each one's offset there and in `bytes`. */
function escapedLines(bytes: Buffer): { text: string; at: number[]; from: number[] } | null {
  const parts: string[] = [];
  const at: number[] = [];
  const from: number[] = [];
  let joined = 0;
  // the next escape, searched for again only once the lines pass it
  let escape = -2;
  for (let start = 0; start < bytes.length; ) {
    if (escape !== -1 && escape < start) {
      escape = bytes.indexOf(0x5c, start);
      while (escape !== -1 && bytes[escape + 1] !== 0x75 && bytes[escape + 1] !== 0x2f) escape = bytes.indexOf(0x5c, escape + 1);
    }
    if (escape === -1) break;
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    if (escape < end) {
      at.push(joined);
      from.push(start);
      parts.push(bytes.toString('latin1', start, end));
      joined += end - start + 1;
    }
    start = end + 1;
  }
  return parts.length ? { text: parts.join('\n'), at, from } : null;
}

/**
 * Every secret in artifact bytes, with byte offsets: what the push-time scan calls. The same
 * findings as `findSecrets` over the bytes as latin1 text, without that text whole: the bytes are
 * scanned in pieces cut where no match can span, and the escape-decoded scan reads only the lines it decodes.
 */
export function scanSecrets(bytes: Uint8Array, pieceSize: number = PIECE): Finding[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: Ordered[] = [];
  for (let from = 0; from < buf.length; ) {
    const end = pieceEnd(buf, from, pieceSize);
    for (const f of matchRules(buf.toString('latin1', from, end), SECRET_RULES)) found.push({ ...f, offset: f.offset + from });
    from = end;
  }
  const lines = escapedLines(buf);
  if (lines) {
    // a joined offset in line k is that line's offset in the bytes plus the distance into it
    const toBytes = (q: number) => {
      let lo = 0;
      for (let hi = lines.at.length - 1; lo < hi; ) {
        const mid = (lo + hi + 1) >> 1;
        if (lines.at[mid] <= q) lo = mid;
        else hi = mid - 1;
      }
      return lines.from[lo] + q - lines.at[lo];
    };
    for (const f of escapedFindings(lines.text, SECRET_RULES, 0)) {
      const offset = toBytes(f.offset);
      found.push({ ...f, offset, length: toBytes(f.offset + f.length) - offset });
    }
  }
  return firstOfOverlaps(found);
}

/** What a redacted secret becomes: no quotes or backslashes, so a JSON string stays a JSON string. */
export const redactionMark = (rule: string) => `[REDACTED:${rule}]`;

/** `text` with each finding replaced by its mark. */
export function redactText(text: string, findings: readonly Finding[]): string {
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.offset) + redactionMark(f.rule);
    at = f.offset + f.length;
  }
  return out + text.slice(at);
}

/** Bytes with each finding (byte offsets) replaced by its mark; other bytes unchanged. */
export function redactBytes(bytes: Uint8Array, findings: readonly Finding[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const f of findings) {
    parts.push(bytes.subarray(at, f.offset), Buffer.from(redactionMark(f.rule), 'latin1'));
    at = f.offset + f.length;
  }
  parts.push(bytes.subarray(at));
  return new Uint8Array(Buffer.concat(parts));
}

/** Findings per rule id, in rule-id order: meta.json's `redactions`. */
export function countByRule(findings: readonly Finding[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of [...findings].sort((a, b) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0))) out[f.rule] = (out[f.rule] ?? 0) + 1;
  return out;
}
