// Views and masking (DESIGN.md §5) on corpus sessions: the conversation view keeps user and
// assistant text only; masking replaces old tool results by a placeholder, keeps every call/result
// pair and its ids, leaves the last N turns and pinned commits byte for byte, and is cached apart.
import { decode } from 'cbor-x';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, it } from 'vitest';
import { claudeCode } from '../src/formats/claude-code.js';
import type { NeutralMessage, ToolResultBlock } from '../src/core/neutral.js';
import { CORPUS, FIXED_ENV, ctx, describeCorpus, newStore } from './helpers.js';

const env = FIXED_ENV;
const SESSIONS = [
  'd-kimuson__claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
  'iansherr__claude-code-log__-experiments-worktrees__ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl',
  'jnarowski__agentcmd__full-session-five.jsonl',
  'randlee__claude-history__simple-967e501d-subagents-agent-aae161c.jsonl',
].map((f) => join(CORPUS, 'claude-code', f));

const source = (store: string, branch: string): NeutralMessage[] =>
  claudeCode.toNeutral!(claudeCode.parse(ctx(store, ['materialize', branch, '--stop', 'root'], { env }).bytes, { lastOfFile: true }));
/** `--json materialize` as bureau-agent-v1 (lossless for neutral messages): the record and the messages. */
function shaped(store: string, branch: string, args: string[]) {
  const r = ctx(store, ['--json', 'materialize', branch, '--stop', 'root', '--format', 'bureau-agent-v1', ...args], { env });
  expect([r.code, r.stderr]).toEqual([0, 'ctx: translated claude-code-v1 → bureau-agent-v1 (structural)\n']);
  const record = JSON.parse(r.stdout);
  return { record, messages: decode(Buffer.from(record.content, 'base64')) as NeutralMessage[] };
}
const results = (ms: NeutralMessage[]) => ms.flatMap((m, i) => m.content.flatMap((b) => (b.type === 'tool_result' ? [{ i, b }] : [])));
const callIds = (ms: NeutralMessage[]) => ms.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_call' ? [b.id] : [])));
const PLACEHOLDER = /^\[tool output hidden: \d+ chars\]$/;
const isMasked = (b: ToolResultBlock) => typeof b.content === 'string' && PLACEHOLDER.test(b.content);
/** Index of the message that starts the N-th last turn (a user message with text); 0 when fewer turns. */
function lastTurnsFrom(ms: NeutralMessage[], n: number): number {
  const starts = ms.flatMap((m, i) => (m.role === 'user' && m.content.some((b) => b.type === 'text') ? [i] : []));
  return n === 0 ? ms.length : n > starts.length ? 0 : starts[starts.length - n];
}

function importAll(): string {
  const store = newStore();
  SESSIONS.forEach((file, i) => expect(ctx(store, ['import', 'claude-code', file, '-b', `s${i}`], { env }).code).toBe(0));
  return store;
}

describeCorpus('views', () => {
  it('conversation: user and assistant text only, no empty message; reasoning: the bytes as without a view', () => {
    const store = importAll();
    const counts = SESSIONS.map((file, i) => {
      const all = source(store, `s${i}`);
      const { record, messages } = shaped(store, `s${i}`, ['--view', 'conversation']);
      expect(record).toMatchObject({ view: 'conversation', masked: 0, tier: 'structural' });
      for (const m of messages) {
        expect(['user', 'assistant']).toContain(m.role);
        expect(m.content.length).toBeGreaterThan(0);
        expect(m.content.every((b) => b.type === 'text')).toBe(true);
      }
      const texts = (ms: NeutralMessage[]) => ms.filter((m) => m.role === 'user' || m.role === 'assistant').flatMap((m) => m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])));
      expect([basename(file), texts(messages)]).toEqual([basename(file), texts(all)]);

      const plain = ctx(store, ['materialize', `s${i}`, '--stop', 'root'], { env });
      const reasoning = ctx(store, ['materialize', `s${i}`, '--stop', 'root', '--view', 'reasoning'], { env });
      expect(reasoning.bytes.equals(plain.bytes)).toBe(true);
      return [all.length, messages.length];
    });
    // [neutral messages, conversation view messages] per session
    expect(counts).toEqual([[45, 11], [81, 13], [9, 4], [46, 15]]);
  }, 60_000);

  it('a view needs a format written from messages: exit 2 naming them; without --format, the stored claude-code-v1 (written from messages)', () => {
    const store = importAll();
    for (const args of [['--view', 'conversation'], ['--mask-tool-outputs', '2']]) {
      const r = ctx(store, ['materialize', 's0', ...args, '--json'], { env });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toMatchObject({ format: 'claude-code-v1', tier: 'structural' });
    }
    for (const args of [['--view', 'conversation', '--format', 'raw'], ['--mask-tool-outputs', '1', '--format', 'gemini-cli-chat-v1']]) {
      const r = ctx(store, ['materialize', 's0', ...args], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/cannot be written as (raw|gemini-cli-chat-v1): give --format claude-code-v1, bureau-agent-v1, codex-rollout-v1, gemini-cli-jsonl-v1, openai-chat-v1, pi-session-v3, opencode-session-v1, copilot-events-v1, openai-agents-v1, markdown\n$/);
    }
    expect(ctx(store, ['materialize', 's0', '--view', 'outline'], { env })).toMatchObject({ code: 2, stderr: "ctx: unknown view 'outline': reasoning or conversation\n" });
    expect(ctx(store, ['materialize', 's0', '--mask-tool-outputs', '-1', '--format', 'markdown'], { env }).code).toBe(2);
  });
});

describeCorpus('--mask-tool-outputs', () => {
  it('masks results before the last N turns, keeps every pair and its ids, leaves the last N turns byte for byte', () => {
    const store = importAll();
    const counts = SESSIONS.map((file, i) => {
      const all = source(store, `s${i}`);
      return [0, 1, 3].map((n) => {
        const { record, messages } = shaped(store, `s${i}`, ['--mask-tool-outputs', String(n)]);
        // nothing removed: same messages, same blocks, same call ids, each result with its call id
        expect(messages.map((m) => [m.role, m.ids, m.content.map((b) => b.type)])).toEqual(all.map((m) => [m.role, m.ids, m.content.map((b) => b.type)]));
        expect(callIds(messages)).toEqual(callIds(all));
        const before = results(all);
        const after = results(messages);
        expect(after.map(({ b }) => [b.call_id, b.is_error])).toEqual(before.map(({ b }) => [b.call_id, b.is_error]));
        const from = lastTurnsFrom(all, n);
        after.forEach(({ i: at, b }, k) => {
          if (at >= from) expect(b).toEqual(before[k].b);
          else expect(b.content).toMatch(PLACEHOLDER);
        });
        expect(record).toMatchObject({ view: 'reasoning', masked: after.filter(({ b }) => isMasked(b)).length });
        return record.masked;
      });
    });
    // masked results for N = 0, 1, 3 per session (N = 0: every result); the iansherr worktree
    // session's last three turns are follow-ups without tool use
    expect(counts).toEqual([[21, 9, 0], [40, 40, 40], [5, 0, 0], [22, 0, 0]]);
  }, 60_000);

  it("keeps a pinned commit's results; a pin changes the cached result", () => {
    const store = newStore();
    // a real chain: one corpus session checkpointed in four pieces, cut before user-text lines
    const lines = readFileSync(SESSIONS[0], 'utf8').split(/(?<=\n)/);
    const userText = (l: string) => {
      const o = JSON.parse(l);
      const c = o.type === 'user' ? o.message?.content : undefined;
      return typeof c === 'string' || (Array.isArray(c) && c.some((b: { type: string }) => b.type === 'text'));
    };
    const cuts = lines.flatMap((l, i) => (i > 0 && userText(l) ? [i] : []));
    const at = [0, ...[1, 2, 3].map((k) => cuts[Math.floor((cuts.length * k) / 4)]), lines.length];
    const ids = [0, 1, 2, 3].map((k) => {
      const w = ctx(store, ['checkpoint', '-b', 'p', '--format', 'claude-code-v1', '-'], { env, input: lines.slice(at[k], at[k + 1]).join('') });
      expect(w.code).toBe(0);
      return w.stdout.trim();
    });
    const all = source(store, 'p');
    const piece = (k: number) => claudeCode.toNeutral!(claudeCode.parse(Buffer.from(lines.slice(at[k], at[k + 1]).join('')), { lastOfFile: true }));
    const sizes = [0, 1, 2, 3].map((k) => piece(k).length);
    expect(sizes.reduce((a, b) => a + b)).toBe(all.length);

    const unpinned = shaped(store, 'p', ['--mask-tool-outputs', '0']);
    expect(unpinned.record.masked).toBe(results(all).length);
    expect(ctx(store, ['annotate', ids[1], '--pin'], { env }).code).toBe(0);
    const pinned = shaped(store, 'p', ['--mask-tool-outputs', '0']);
    const lo = sizes[0];
    const hi = lo + sizes[1];
    const kept = results(all).filter(({ i }) => i >= lo && i < hi);
    expect(kept.length).toBeGreaterThan(0);
    expect(pinned.record.masked).toBe(results(all).length - kept.length);
    for (const { i, b } of results(pinned.messages)) expect([i, isMasked(b)]).toEqual([i, !(i >= lo && i < hi)]);
    expect(pinned.messages.slice(lo, hi)).toEqual(all.slice(lo, hi));
    // from the cache: the same record, masked count included
    expect(shaped(store, 'p', ['--mask-tool-outputs', '0']).record).toEqual(pinned.record);
    expect([results(all).length, kept.length]).toEqual([21, 5]);
  }, 60_000);
});
