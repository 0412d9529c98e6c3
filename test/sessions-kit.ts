// A store of several sessions for the sessions page's tests: a fixture of each of the six runtimes,
// a second Claude Code session (with an ai-title), a fork with a turn of its own, and a fork with none.
import { join } from 'node:path';
import { FIXTURES, ctx, newStore } from './helpers.js';
import { FIXED } from './serve-kit.js';

export function sessionsStore(): string {
  const store = newStore();
  const run = (args: string[], input?: string) => {
    const r = ctx(store, args, { env: FIXED, input });
    if (r.code !== 0) throw new Error(`ctx ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const F = (...p: string[]) => join(FIXTURES, ...p);
  run(['import', 'claude-code', F('claude-code', 'compacted-session.jsonl'), '-b', 'alice/auth-fix']);
  run(['import', 'claude-code', F('claude-code', 'newer-line-types.jsonl'), '-b', 'alice/merge']);
  run(['import', 'codex', F('codex', 'rollout-2026-03-01T10-00-00-01a21dd1-845b-7400-9ae0-912b49e4f6bb.jsonl'), '-b', 'bob/notes']);
  run(['import', 'gemini-cli', F('gemini-cli', 'session-2026-03-02T09-00-2e7e3091.jsonl'), '-b', 'bob/gemini']);
  run(['import', 'pi', F('pi', '2026-01-10T09-00-00-000Z_019a0001-aaaa-7bbb-8ccc-000000000001.jsonl'), '-b', 'carol/done-flag']);
  run(['import', 'opencode', F('opencode', 'session.json'), '-b', 'carol/file']);
  run(['import', 'copilot', F('copilot', 'events.jsonl'), '-b', 'dave/copilot']);
  run(['fork', 'alice/auth-fix~3', 'review/finding-1']);
  const line = `${JSON.stringify({ type: 'user', uuid: 'r-1', parentUuid: null, sessionId: 'r', timestamp: '2026-03-05T10:00:00.000Z', message: { role: 'user', content: 'Review: is the blank-line fix covered by a test?' } })}\n`;
  run(['checkpoint', '-b', 'review/finding-1', '--format', 'claude-code-v1', '-'], line);
  run(['fork', 'alice/auth-fix~1', 'alice/side']);
  return store;
}
