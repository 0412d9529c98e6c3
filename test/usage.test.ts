// `ctx usage`: tokens summed from what each runtime's transcript records of its API responses (each
// response once), grouped, priced from @pydantic/genai-prices' bundled table or the store's prices.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calcPrice } from '@pydantic/genai-prices';
import { CORPUS, FIXTURES, FIXED_ENV, ctx, describeCorpus, itCorpus, newStore, tempDir } from './helpers.js';

const env = { ...FIXED_ENV, CTX_NOW: '2026-11-27T00:00:00.000Z' };
const CLAUDE = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');
const CLAUDE_NEW = join(FIXTURES, 'claude-code', 'newer-line-types.jsonl');
const SPLIT = join(FIXTURES, 'claude-code', 'split-response.jsonl');
const CODEX = join(FIXTURES, 'codex', 'rollout-2026-11-22T21-04-49-01a20513-6ef2-75e0-a186-7b61e34882c3.jsonl');
const GEMINI = join(FIXTURES, 'gemini-cli', 'session-2026-03-02T09-00-2e7e3091.jsonl');

// the bundled table's prices, USD per million tokens: input, output, cache read, cache write
const OPUS_45 = [5, 25, 0.5, 6.25];
const OPUS_55 = [4, 20, 0.2, 5];
const GEMINI_38 = [0.75, 3.75, 0.075, 0.75]; // no cache write price: input's
const SONNET_45 = [3, 15, 0.3, 3.75];
const cost = (t: number[], p: number[]) => t.reduce((s, n, i) => s + n * p[i], 0) / 1e6;

function store(...files: [string, string][]): string {
  const s = newStore();
  for (const [runtime, file] of files) expect(ctx(s, ['import', runtime, file], { env }).code).toBe(0);
  return s;
}
const run = (s: string, args: string[], extra: Record<string, string> = {}) => ctx(s, ['usage', ...args], { env: { ...env, ...extra } });
const records = (s: string, args: string[]) => {
  const r = run(s, [...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
};

describe('ctx usage', () => {
  it('the prices pinned here are the bundled table’s', () => {
    const mtok = (m: string) => {
      const p = calcPrice({ input_tokens: 0, output_tokens: 0 }, m)!.model_price;
      // a tiered price's base: these fixtures' prompts are under its first tier
      const base = (v: (typeof p)[string]) => (typeof v === 'object' ? v.base : v);
      return [p.input_mtok, p.output_mtok, p.cache_read_mtok, p.cache_write_mtok ?? p.input_mtok].map(base);
    };
    expect(mtok('claude-opus-4-5-20251101')).toEqual(OPUS_45);
    expect(mtok('claude-opus-5-5')).toEqual(OPUS_55);
    expect(mtok('gemini-3.8-flash')).toEqual(GEMINI_38);
    expect(mtok('claude-sonnet-4-5')).toEqual(SONNET_45);
    expect(calcPrice({ input_tokens: 0, output_tokens: 0 }, 'gpt-mock')).toBeNull();
  });

  const four = () => store(['claude-code', CLAUDE], ['claude-code', CLAUDE_NEW], ['codex', CODEX], ['gemini-cli', GEMINI]);

  it('prints one aligned row per session, a total, and names the models without a price', () => {
    const r = run(four(), []);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'SESSION                                      RESPONSES  INPUT  OUTPUT  CACHE READ  CACHE WRITE  COST (USD)',
        'claude/3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83          5     40     135      91,200        2,060      0.0621',
        'claude/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f          3     60      32           0            0      0.0009',
        'codex/01a20513-6ef2-75e0-a186-7b61e34882c3           4     40      20           0            0           ?',
        'gemini/2e7e3091-be10-4bcd-853c-f523e4bb6324          2     20      10           0            0      0.0001',
        'total                                               14    160     197      91,200        2,060  0.0630 + ?',
        "? no price for gpt-mock: tokens counted, cost not (prices go in the store's prices.json)",
        '',
      ].join('\n'),
    );
  });

  it('--json: a record per group, then the total; cost is the summed tokens times the table’s price', () => {
    const claude = [40, 135, 91200, 2060]; // 5 responses of 8 input, 18,240 cache read, 412 cache write; outputs summed by hand
    const claudeNew = [60, 32, 0, 0]; // 10+20+30, 5+25+2
    const gemini = [20, 10, 0, 0]; // two responses of 10 in, 5 out (the third line repeats the first's id)
    const rec = (key: string | null, responses: number, t: number[], c: number | null, unpriced: string[] = [], by = 'session') => ({
      v: 1, by, key, responses, input_tokens: t[0], output_tokens: t[1], cache_read_tokens: t[2], cache_write_tokens: t[3], cost_usd: c, unpriced_models: unpriced,
    });
    expect(records(four(), [])).toEqual([
      rec('claude/3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83', 5, claude, cost(claude, OPUS_45)),
      rec('claude/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f', 3, claudeNew, cost(claudeNew, OPUS_55)),
      rec('codex/01a20513-6ef2-75e0-a186-7b61e34882c3', 4, [40, 20, 0, 0], null, ['gpt-mock']),
      rec('gemini/2e7e3091-be10-4bcd-853c-f523e4bb6324', 2, gemini, cost(gemini, GEMINI_38)),
      rec(null, 14, [160, 197, 91200, 2060], cost(claude, OPUS_45) + cost(claudeNew, OPUS_55) + cost(gemini, GEMINI_38), ['gpt-mock'], 'total'),
    ]);
  });

  it('--by model, day and project group the same responses', () => {
    const s = four();
    const keys = (by: string) => records(s, ['--by', by]).map((r) => [r.key, r.responses]);
    expect(keys('model')).toEqual([['claude-opus-4-5-20251101', 5], ['claude-opus-5-5', 3], ['gemini-3.8-flash', 2], ['gpt-mock', 4], [null, 14]]);
    expect(keys('day')).toEqual([['2026-03-02', 2], ['2026-03-04', 5], ['2026-11-20', 3], ['2026-11-22', 4], [null, 14]]);
    expect(keys('project')).toEqual([['(unknown)', 2], ['/Users/alex/src/todo-cli', 5], ['/home/alex/src/todo-cli', 3], ['/home/alice/todo', 4], [null, 14]]);
  });

  it('counts a response Claude Code wrote as several lines (one message id) once', () => {
    const s = store(['claude-code', SPLIT]);
    const lines = readFileSync(SPLIT, 'utf8').split('\n').filter((l) => l.includes('"usage"'));
    expect(lines).toHaveLength(3); // msg_a twice, msg_b once
    const t = [100 + 7, 50 + 20, 2000 + 2400, 300 + 0];
    expect(records(s, [])).toEqual([
      { v: 1, by: 'session', key: 'claude/7a1b2c3d-0000-4e00-8f00-000000000051', responses: 2, input_tokens: 107, output_tokens: 70, cache_read_tokens: 4400, cache_write_tokens: 300, cost_usd: cost(t, OPUS_45), unpriced_models: [] },
      { v: 1, by: 'total', key: null, responses: 2, input_tokens: 107, output_tokens: 70, cache_read_tokens: 4400, cache_write_tokens: 300, cost_usd: cost(t, OPUS_45), unpriced_models: [] },
    ]);
    expect(cost(t, OPUS_45)).toBe(0.00636);
  });

  it('counts a response once when its lines land in two commits of the chain', () => {
    const s = newStore();
    const [, first, second] = readFileSync(SPLIT, 'utf8').split('\n'); // msg_a's two lines
    for (const l of [first, second]) expect(ctx(s, ['checkpoint', '-b', 'split', '--format', 'claude-code-v1', '-'], { input: l + '\n', env }).code).toBe(0);
    expect(records(s, []).at(-1)).toMatchObject({ responses: 1, input_tokens: 100, output_tokens: 50, cache_read_tokens: 2000, cache_write_tokens: 300, cost_usd: cost([100, 50, 2000, 300], OPUS_45) });
  });

  it('--since: a duration back from CTX_NOW or a date, by each entry’s own time', () => {
    const s = store(['claude-code', SPLIT], ['codex', CODEX], ['claude-code', CLAUDE_NEW]);
    const total = (args: string[]) => records(s, args).at(-1);
    // 2d back from 2026-11-27: only msg_b (2026-11-26)
    expect(total(['--since', '2d'])).toMatchObject({ responses: 1, input_tokens: 7, output_tokens: 20, cache_read_tokens: 2400, cache_write_tokens: 0 });
    // from 2026-11-22: the codex session and both split-response messages, not 2026-11-20's
    expect(records(s, ['--since', '2026-11-22']).map((r) => [r.key, r.responses])).toEqual([['claude/7a1b2c3d-0000-4e00-8f00-000000000051', 2], ['codex/01a20513-6ef2-75e0-a186-7b61e34882c3', 4], [null, 6]]);
    const r = run(s, ['--since', 'lately']);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', "ctx: --since: not a duration or a time: 'lately' (e.g. 24h, 7d, 2026-11-20T14:03:00Z, all)\n"]);
  });

  it("the store's prices.json prices a model the table lacks, and overrides one it has", () => {
    const s = store(['codex', CODEX], ['claude-code', SPLIT]);
    writeFileSync(join(s, 'prices.json'), JSON.stringify({ 'gpt-mock': { input: 2, output: 8, cache_read: 0.5 }, 'claude-opus-4-5-20251101': { input: 1, output: 2, cache_read: 0.1, cache_write: 1.5 } }));
    const [claude, codex, total] = records(s, []);
    expect(codex).toMatchObject({ input_tokens: 40, output_tokens: 20, cost_usd: cost([40, 20, 0, 0], [2, 8, 0.5, 2]), unpriced_models: [] });
    expect(claude.cost_usd).toBe(cost([107, 70, 4400, 300], [1, 2, 0.1, 1.5]));
    expect(total.cost_usd).toBe(cost([107, 70, 4400, 300], [1, 2, 0.1, 1.5]) + cost([40, 20, 0, 0], [2, 8, 0.5, 2]));
    expect(run(s, []).stdout).toBe(
      [
        'SESSION                                      RESPONSES  INPUT  OUTPUT  CACHE READ  CACHE WRITE  COST (USD)',
        'claude/7a1b2c3d-0000-4e00-8f00-000000000051          2    107      70       4,400          300      0.0011',
        'codex/01a20513-6ef2-75e0-a186-7b61e34882c3           4     40      20           0            0      0.0002',
        'total                                                6    147      90       4,400          300      0.0014',
        '',
      ].join('\n'),
    );
    writeFileSync(join(s, 'prices.json'), '{"gpt-mock": {"input": -1, "output": 8}}');
    const bad = run(s, []);
    expect([bad.code, bad.stdout]).toEqual([1, '']);
    expect(bad.stderr).toBe(`ctx: ${join(s, 'prices.json')}: gpt-mock.input is not a price (expected {"<model>": {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75}}, USD per million tokens)\n`);
  });

  it("pi's and OpenCode's assistant messages: their usage, by project", () => {
    const s = store(['pi', join(FIXTURES, 'pi', '2026-01-10T09-00-00-000Z_019a0001-aaaa-7bbb-8ccc-000000000001.jsonl')], ['opencode', join(FIXTURES, 'opencode', 'session.json')]);
    const pi = [7 * 120, 7 * 30, 0, 0]; // seven assistant messages of 120 in, 30 out
    expect(records(s, ['--by', 'project'])).toEqual([
      { v: 1, by: 'project', key: '/home/alice/proj', responses: 2, input_tokens: 20, output_tokens: 10, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: null, unpriced_models: ['mock-model'] },
      { v: 1, by: 'project', key: '/home/alice/todo', responses: 7, input_tokens: 840, output_tokens: 210, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: cost(pi, SONNET_45), unpriced_models: [] },
      { v: 1, by: 'total', key: null, responses: 9, input_tokens: 860, output_tokens: 220, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: cost(pi, SONNET_45), unpriced_models: ['mock-model'] },
    ]);
  });

  it('a tiered price goes by the request: over 200,000 prompt tokens, the higher tier', () => {
    const s = newStore();
    const line = (id: string, input: number, read: number) =>
      JSON.stringify({ type: 'assistant', timestamp: '2026-11-25T00:00:00.000Z', message: { id, model: 'claude-sonnet-4-5', role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: input, cache_read_input_tokens: read, output_tokens: 1000 } } }) + '\n';
    const cp = ctx(s, ['checkpoint', '-b', 'big', '--format', 'claude-code-v1', '-'], { input: line('m1', 150000, 60000) + line('m2', 150000, 40000), env });
    expect(cp.code).toBe(0);
    // m1's prompt is 210,000 tokens: 6, 22.5, 0.6 per million (the table's tier over 200,000); m2's 190,000: the base
    expect(records(s, [])[0].cost_usd).toBe(cost([150000, 1000, 60000, 0], [6, 22.5, 0.6, 7.5]) + cost([150000, 1000, 40000, 0], SONNET_45));
  });

  it('a bad --by is a usage error (exit 2), one line', () => {
    const r = run(newStore(), ['--by', 'week']);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', "ctx: option '--by <group>' argument 'week' is invalid. Allowed choices are session, day, model, project.\n"]);
  });

  it('an empty store prints the header and a zero total', () => {
    expect(records(newStore(), [])).toEqual([{ v: 1, by: 'total', key: null, responses: 0, input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: null, unpriced_models: [] }]);
  });

  it('never fetches prices: the run makes no network call', () => {
    const dir = tempDir();
    const trap = join(dir, 'trap.cjs');
    writeFileSync(trap, "const net = require('net'); globalThis.fetch = () => { process.stderr.write('fetch\\n'); throw new Error('offline'); }; const c = net.connect; net.connect = net.createConnection = (...a) => { process.stderr.write('connect\\n'); return c(...a); };\n");
    const r = run(four(), [], { NODE_OPTIONS: `--require ${trap}` });
    expect([r.code, r.stderr]).toEqual([0, '']);
  });
});

/** The same sums computed here from the transcript's lines: Claude Code's usage per message id. */
function claudeSums(file: string): number[] {
  const byId = new Map<string, Record<string, number>>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"usage"')) continue;
    const e = JSON.parse(line);
    if (e.type === 'assistant' && e.message?.usage) byId.set(e.message.id, e.message.usage);
  }
  const t = [0, 0, 0, 0];
  for (const u of byId.values()) ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'].forEach((k, i) => (t[i] += u[k] ?? 0));
  return [byId.size, ...t];
}

/** Codex: each token_count's last usage, once per running total; cached tokens are inside input. */
function codexSums(file: string): number[] {
  const byTotal = new Map<number, Record<string, number>>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"token_count"')) continue;
    const e = JSON.parse(line);
    if (e.type === 'event_msg' && e.payload?.info?.last_token_usage) byTotal.set(e.payload.info.total_token_usage.total_tokens, e.payload.info.last_token_usage);
  }
  const t = [0, 0, 0, 0];
  for (const u of byTotal.values()) {
    t[0] += u.input_tokens - (u.cached_input_tokens ?? 0) - (u.cache_write_input_tokens ?? 0);
    t[1] += u.output_tokens;
    t[2] += u.cached_input_tokens ?? 0;
    t[3] += u.cache_write_input_tokens ?? 0;
  }
  return [byTotal.size, ...t];
}

describeCorpus('ctx usage on real transcripts', () => {
  const total = (runtime: string, file: string) => {
    const s = newStore();
    expect(ctx(s, ['import', runtime, file], { env }).code).toBe(0);
    const t = records(s, []).at(-1);
    return [t.responses, t.input_tokens, t.output_tokens, t.cache_read_tokens, t.cache_write_tokens];
  };
  itCorpus('Claude Code: each message id once', () => {
    const file = join(CORPUS, 'claude-code', 'd-kimuson__claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
    const sums = claudeSums(file);
    expect(sums[0]).toBeGreaterThan(0);
    expect(total('claude-code', file)).toEqual(sums);
  });
  itCorpus('Codex: each token_count once', () => {
    const file = join(CORPUS, 'codex', 'AcidicSoil__codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl');
    const sums = codexSums(file);
    expect(sums[0]).toBeGreaterThan(0);
    expect(total('codex', file)).toEqual(sums);
  });
});
