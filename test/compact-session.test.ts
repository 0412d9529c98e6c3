// `ctx compact` on a captured session: a line without uuid or timestamp keeps its own bytes (the
// context is never flattened into one message), a context already under budget writes nothing, and
// the compaction commit belongs to the branch's session.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { FIXED_ENV, FIXTURES, ctx, fsck, newStore, refSnapshot } from './helpers.js';

const SESSION = '3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83';
const BRANCH = `claude/${SESSION}`;
// the README's own checkpoint example: a line with neither uuid nor timestamp
const BARE = '{"type":"user","message":{"role":"user","content":"hi"}}\n';

function imported(): string {
  const store = newStore();
  expect(ctx(store, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl')], { env: FIXED_ENV }).code).toBe(0);
  return store;
}

const meta = (store: string, id: string) => JSON.parse(ctx(store, ['show', id, '--json'], { env: FIXED_ENV }).stdout).meta;

describe('ctx compact on a session', () => {
  it('a line without uuid stays its own line: the kept turn is not flattened into the summary', () => {
    const store = imported();
    expect(ctx(store, ['checkpoint', '-b', BRANCH, '--format', 'claude-code-v1', '-'], { input: BARE, env: FIXED_ENV }).code).toBe(0);
    const r = ctx(store, ['compact', BRANCH, '--summary-file', '-', '--keep-turns', '1', '--json'], { input: 'SUMMARY', env: FIXED_ENV });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect([j.messages_before, j.messages_after]).toEqual([5, 3]);
    const delta = ctx(store, ['show', BRANCH, '--delta']).stdout;
    const lines = delta.split('\n').filter(Boolean);
    expect(lines.map((l) => JSON.parse(l).type)).toEqual(['system', 'user', 'user', 'user']);
    expect(`${lines[3]}\n`).toBe(BARE);
    expect(meta(store, BRANCH).message_count).toBe(3);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });

  it('the compaction carries the branch session and template, and the report its token_count', () => {
    const store = imported();
    const r = ctx(store, ['compact', BRANCH, '--policy', 'prune-tool-outputs,summarize', '--summary-file', '-', '--keep-turns', '1', '--json'], { input: 'SUMMARY', env: FIXED_ENV });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    const m = meta(store, j.id);
    expect([m.session_id, m.template, m.principal]).toEqual([SESSION, 'claude-code', 'alice']);
    expect(j.tokens_after).toBe(m.token_count);
  });

  it('already under budget: every stage skipped, nothing written, said so, exit 0 — again and again', () => {
    const store = imported();
    const before = refSnapshot(store);
    for (let i = 0; i < 2; i++) {
      const r = ctx(store, ['compact', BRANCH, '--policy', 'truncate', '--budget', '100000'], { env: FIXED_ENV });
      expect([r.code, r.stdout]).toEqual([0, '']);
      expect(r.stderr).toContain(`nothing written: ${BRANCH} is already under the budget`);
      expect(refSnapshot(store)).toBe(before);
    }
    const j = JSON.parse(ctx(store, ['compact', BRANCH, '--policy', 'truncate', '--budget', '100000', '--json'], { env: FIXED_ENV }).stdout);
    expect([j.id, j.parent, j.messages_before, j.messages_after]).toEqual([null, null, 4, 4]);
    expect(j.tokens_after).toBe(j.tokens_before);
    expect(refSnapshot(store)).toBe(before);
  });
});
