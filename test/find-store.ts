// The store the find tests (grep, files) read: the three runtimes' fixture sessions with tool calls,
// and a fork of the Claude Code one with a commit of its own.
import { join } from 'node:path';
import { FIXED_ENV, FIXTURES, ctx } from './helpers.js';

const FIND = join(FIXTURES, 'find');
export const FIND_ENV = { ...FIXED_ENV, CTX_NOW: '2026-11-21T00:00:00.000Z' };
/** A store of the three runtimes' fixture sessions, and a fork of the Claude one with a commit of its own. */
export function findStore(dir: string, env: Record<string, string> = FIND_ENV): string {
  const store = join(dir, '.ctx');
  const run = (args: string[], input?: string) => {
    const r = ctx(store, args, { env, input });
    if (r.code !== 0) throw new Error(r.stderr);
  };
  run(['init', store]);
  run(['import', 'claude-code', join(FIND, 'claude-tools.jsonl'), '-b', 'alice/auth']);
  run(['import', 'codex', join(FIND, 'rollout-2026-11-20T10-00-00-0b1c2d3e-4f5a-7b6c-8d9e-0f1a2b3c4d5e.jsonl'), '-b', 'alice/rename']);
  run(['import', 'gemini-cli', join(FIND, 'session-2026-11-20T11-00-cccc9999.jsonl'), '-b', 'bob/log']);
  run(['fork', 'alice/auth~2', 'alice/auth-fork']);
  run(['checkpoint', '-b', 'alice/auth-fork', '--format', 'claude-code-v1', '-'], '{"type":"user","message":{"role":"user","content":"Also make the token refresh jitter its retries"}}\n');
  return store;
}

