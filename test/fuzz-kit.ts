// Seeded mutation of valid inputs, and the properties every ctx run must keep, for test/fuzz.test.ts
// and test/crash.test.ts. FUZZ_SEED fixes the run; a failure names the seed and case to replay.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from 'cbor-x';
import { FIXTURES } from './helpers.js';

/** mulberry32: small, fast, good enough to pick mutations. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)], chance: (p: number) => next() < p };
}
export type Rng = ReturnType<typeof prng>;

/** The run's base seed: FUZZ_SEED, else a fixed one so `npm test` is reproducible. */
export const BASE_SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) >>> 0 : 0x5eed;
/** How many cases a category runs: FUZZ_CASES (or the given env var), else `small`. */
export const cases = (small: number, name = 'FUZZ_CASES') => Number(process.env[name] ?? small);
/** One case's seed, derived from the base and the category, so categories do not share streams. */
export const caseSeed = (category: string, i: number) => (BASE_SEED ^ hash(category)) + i * 0x9e3779b1;
export const replay = (category: string, i: number, what: string) => `FUZZ_SEED=${BASE_SEED} category ${category} case ${i}: ${what}`;

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

// ---- valid inputs -------------------------------------------------------------------------------

const fixture = (...p: string[]) => readFileSync(join(FIXTURES, ...p), 'utf8');
const firstLines = (text: string, n: number) => text.split('\n').slice(0, n).join('\n') + '\n';

export const GEMINI = {
  sessionId: 'g-1',
  projectHash: 'abc',
  startTime: '2025-10-27T19:56:01.701Z',
  lastUpdated: '2025-10-27T19:56:04.625Z',
  messages: [
    { id: 'u-1', timestamp: '2025-10-27T19:56:01.701Z', type: 'user', content: 'make an agent' },
    { id: 'g-1', timestamp: '2025-10-27T19:56:04.625Z', type: 'gemini', content: 'Here it is', thoughts: [{ subject: 's', description: 'd', timestamp: '2025-10-27T19:56:03.000Z' }], tokens: { input: 10, output: 5 }, model: 'gemini-2.5-pro' },
  ],
};
export const OPENAI = [
  { role: 'system', content: 'be brief' },
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
  { role: 'assistant', content: 'done' },
];
export const BUREAU = [
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: [{ type: 'text', text: 'looking' }, { type: 'tool_call', id: 'c1', name: 'ls', input: { path: '.' } }] },
  { role: 'tool', content: [{ type: 'tool_result', call_id: 'c1', content: 'a.txt' }] },
];

/** Small valid artifacts per storage format; `json` says how to decode them for structural mutation. */
export function seeds(): { format: string; kind: 'jsonl' | 'json' | 'cbor'; bytes: Buffer }[] {
  const claude = fixture('claude-code', 'compacted-session.jsonl');
  const codex = fixture('codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');
  const legacy = fixture('codex', 'legacy-rollout-2025-08-20T13-20-47-c27a914d-5f3b-4c1e-9a2d-7e8f6b5a4c3d.jsonl');
  return [
    { format: 'claude-code-v1', kind: 'jsonl', bytes: Buffer.from(firstLines(claude, 6)) },
    { format: 'codex-rollout-v1', kind: 'jsonl', bytes: Buffer.from(firstLines(codex, 8)) },
    { format: 'codex-rollout-v0', kind: 'jsonl', bytes: Buffer.from(firstLines(legacy, 8)) },
    { format: 'bureau-agent-v1', kind: 'cbor', bytes: Buffer.from(encode(BUREAU)) },
    { format: 'openai-chat-v1', kind: 'json', bytes: Buffer.from(JSON.stringify(OPENAI)) },
    { format: 'gemini-cli-chat-v1', kind: 'json', bytes: Buffer.from(JSON.stringify(GEMINI, null, 2)) },
    { format: 'gemini-cli-jsonl-v1', kind: 'jsonl', bytes: Buffer.from(fixture('gemini-cli', 'session-2026-01-11T10-00-bbbb2222.jsonl')) },
  ];
}

// ---- mutation -----------------------------------------------------------------------------------

const WEIRD_VALUES: unknown[] = [null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 1, 1.5, '', 'x', [], {}, [null], { type: null }, { role: 1 }, '\u0000', '\ud800', 'A'.repeat(70_000), { content: [] }, { text: 5 }];
const WEIRD_STRINGS = ['', '\u0000', '\ud800', '\uffff', '\u202e', '../../x', 'refs/heads/x', '-x', '~1', '^', '@{-1}', 'HEAD', 'ctx-', 'A'.repeat(5000), '%00', '\\', '"', '\n'];

function deep(depth: number, open: string, close: string, inner = '1'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** Byte-level mutations: the shape no parser asked for. */
export function mutateBytes(rng: Rng, input: Buffer): Buffer {
  let b = Buffer.from(input);
  const rounds = 1 + rng.int(3);
  for (let r = 0; r < rounds; r++) {
    const at = rng.int(b.length + 1);
    switch (rng.int(13)) {
      case 0: // flip a bit
        if (b.length) b[Math.min(at, b.length - 1)] ^= 1 << rng.int(8);
        break;
      case 1: // insert random bytes
        b = Buffer.concat([b.subarray(0, at), Buffer.from(Array.from({ length: 1 + rng.int(8) }, () => rng.int(256))), b.subarray(at)]);
        break;
      case 2: // delete a range
        b = Buffer.concat([b.subarray(0, at), b.subarray(at + 1 + rng.int(64))]);
        break;
      case 3: // truncate
        b = b.subarray(0, at);
        break;
      case 4: {
        // duplicate a line
        const lines = splitLines(b);
        const i = rng.int(lines.length);
        lines.splice(i, 0, lines[i] ?? Buffer.alloc(0));
        b = Buffer.concat(lines);
        break;
      }
      case 5: {
        // swap two lines
        const lines = splitLines(b);
        const [i, j] = [rng.int(lines.length), rng.int(lines.length)];
        [lines[i], lines[j]] = [lines[j], lines[i]];
        b = Buffer.concat(lines.filter(Boolean));
        break;
      }
      case 6: // NUL bytes
        b = Buffer.concat([b.subarray(0, at), Buffer.alloc(1 + rng.int(4)), b.subarray(at)]);
        break;
      case 7: // invalid UTF-8
        b = Buffer.concat([b.subarray(0, at), Buffer.from(rng.pick([[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf]])), b.subarray(at)]);
        break;
      case 8: // a very long run
        b = Buffer.concat([b.subarray(0, at), Buffer.from(rng.pick(['A', '=', ' ', '\\u0041', '\\', '"']).repeat(1000 + rng.int(100_000))), b.subarray(at)]);
        break;
      case 9: // deep nesting
        b = Buffer.concat([b.subarray(0, at), Buffer.from(rng.chance(0.5) ? deep(2000 + rng.int(20_000), '[', ']') : deep(2000 + rng.int(5000), '{"a":', '}')), b.subarray(at)]);
        break;
      case 10: // a huge number
        b = Buffer.concat([b.subarray(0, at), Buffer.from(rng.pick(['9'.repeat(400), '1e999999', '-0', '1e-999', '0x10', 'NaN', 'Infinity'])), b.subarray(at)]);
        break;
      case 11: // lose or add the trailing newline, or CRLF line ends
        if (b.at(-1) === 0x0a) b = b.subarray(0, b.length - 1);
        else if (rng.chance(0.5)) b = Buffer.from(b.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
        else b = Buffer.concat([b, Buffer.from('\n')]);
        break;
      default: // empty lines and whitespace
        b = Buffer.concat([b.subarray(0, at), Buffer.from(rng.pick(['\n', '\n\n', ' ', '\t', '\r', '\ufeff'])), b.subarray(at)]);
    }
  }
  return b;
}

function splitLines(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < b.length; i++)
    if (b[i] === 0x0a) {
      out.push(b.subarray(start, i + 1));
      start = i + 1;
    }
  if (start < b.length) out.push(b.subarray(start));
  return out;
}

/** Replaces one random node of a decoded value with a value of another type. */
export function mutateValue(rng: Rng, value: unknown): unknown {
  const copy = structuredClone(value);
  const slots: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach((x, i) => (slots.push({ parent: v, key: i }), walk(x)));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) slots.push({ parent: v as Record<string, unknown>, key: k }), walk(x);
  };
  walk(copy);
  if (!slots.length || rng.chance(0.05)) return rng.pick(WEIRD_VALUES);
  const rounds = 1 + rng.int(3);
  for (let r = 0; r < rounds; r++) {
    const { parent, key } = rng.pick(slots);
    const choice = rng.int(4);
    if (choice === 0 && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[key as string];
    else if (choice === 1) (parent as Record<string | number, unknown>)[key] = rng.pick(WEIRD_STRINGS);
    else (parent as Record<string | number, unknown>)[key] = structuredClone(rng.pick(WEIRD_VALUES));
  }
  return copy;
}

/** A mutated artifact: structural (decoded, a node replaced, encoded again) or byte-level, or both. */
export function mutateArtifact(rng: Rng, seed: { kind: 'jsonl' | 'json' | 'cbor'; bytes: Buffer }): Buffer {
  let out = seed.bytes;
  if (rng.chance(0.6)) {
    if (seed.kind === 'jsonl') {
      const lines = seed.bytes.toString('utf8').split('\n').filter(Boolean);
      const i = rng.int(lines.length);
      lines[i] = JSON.stringify(mutateValue(rng, JSON.parse(lines[i]))) ?? 'undefined';
      out = Buffer.from(lines.join('\n') + '\n');
    } else if (seed.kind === 'json') out = Buffer.from(JSON.stringify(mutateValue(rng, JSON.parse(seed.bytes.toString('utf8')))) ?? 'undefined');
    else out = Buffer.from(encode(mutateValue(rng, BUREAU)));
  }
  return rng.chance(0.5) || out === seed.bytes ? mutateBytes(rng, out) : out;
}

/** A mutated short string (ids, names, config values, URLs). */
export function mutateString(rng: Rng, s: string): string {
  const out = rng.chance(0.15) ? rng.pick(WEIRD_STRINGS) : mutateBytes(rng, Buffer.from(s)).toString('utf8').slice(0, rng.chance(0.9) ? 300 : 100_000);
  // argv cannot carry NUL; keep strings an exec can pass
  return out.replace(/\0/g, '');
}

// ---- properties ---------------------------------------------------------------------------------

/** What only a bug prints: a stack, `internal error`, a JavaScript runtime error's own words. */
export const JS_BUG = /internal error|^\s+at \S|node:internal|^\w*Error\b|Cannot read properties|is not a function|is not iterable|Maximum call stack|Invalid string length|Invalid array length|out of memory|undefined \(reading/m;

export const DOCUMENTED_EXITS = [0, 1, 2, 3, 4, 5, 6];

/**
 * What a ctx run may print on stderr: nothing, or one `ctx: ` line (never `internal error`, never a
 * stack); warnings (`ctx: translated …`, `warning: …`) may precede it. Returns the problem, or null.
 */
export function stderrProblem(stderr: string, code: number): string | null {
  if (JS_BUG.test(stderr)) return `stack, internal error or a JavaScript error on stderr`;
  if (!DOCUMENTED_EXITS.includes(code)) return `undocumented exit ${code}`;
  if (code !== 0) {
    const lines = stderr.split('\n').filter(Boolean);
    const last = lines.at(-1) ?? '';
    if (!last.startsWith('ctx: ')) return `exit ${code} without a ctx: line`;
    if (lines.some((l) => !/^(ctx: |warning: )/.test(l))) return 'stderr line not starting ctx: or warning:';
  }
  return null;
}
