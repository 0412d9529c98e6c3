// A store whose sessions recorded their usage: two Claude Code sessions, a Codex one (a model with
// no price) and a Gemini CLI one, imported as of 2026-11-27 (the usage tests' now).
import { join } from 'node:path';
import { expect } from 'vitest';
import { FIXED_ENV, FIXTURES, ctx, newStore } from './helpers.js';

export const USAGE_ENV = { ...FIXED_ENV, CTX_NOW: '2026-11-27T00:00:00.000Z' };

export function usageStore(): string {
  const store = newStore();
  for (const [runtime, file] of [
    ['claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl')],
    ['claude-code', join(FIXTURES, 'claude-code', 'newer-line-types.jsonl')],
    ['codex', join(FIXTURES, 'codex', 'rollout-2026-11-22T21-04-49-01a20513-6ef2-75e0-a186-7b61e34882c3.jsonl')],
    ['gemini-cli', join(FIXTURES, 'gemini-cli', 'session-2026-03-02T09-00-2e7e3091.jsonl')],
  ])
    expect(ctx(store, ['import', runtime, file], { env: USAGE_ENV }).code).toBe(0);
  return store;
}
