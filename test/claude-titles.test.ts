// Claude Code's newer line types (attachment, mode, permission-mode, bridge-session, ai-title,
// pr-link, file-history-delta, system away_summary): they round-trip byte for byte; ai-title is the
// chain's title and pr-link its pull request in `ctx log` and `ctx branch` records; a translation to
// another runtime's format carries the conversation and none of these lines.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, FIXTURES, ctx, newStore } from './helpers.js';

const FILE = join(FIXTURES, 'claude-code', 'newer-line-types.jsonl');
const BRANCH = 'claude/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const PR = { number: 42, url: 'https://github.com/alex/todo-cli/pull/42', repository: 'alex/todo-cli' };
const json = (store: string, args: string[]) => ctx(store, [...args, '--json'], { env: FIXED_ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));

describe('Claude Code session titles and pull requests', () => {
  it('imports the newer line types byte for byte; log gives each commit the title and pull request of its chain so far, branch the newest', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', FILE], { env: FIXED_ENV }).code).toBe(0);
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root'], { env: FIXED_ENV }).bytes.equals(readFileSync(FILE))).toBe(true);
    const log = json(store, ['log', BRANCH]);
    expect(log.map((r) => [r.summary, r.title, r.pr])).toEqual([
      ['Thanks, merge it.', 'Fix and merge todo list blank-line bug', PR],
      ['Why does todo list print nothing?', 'Fix todo list on a leading blank line', PR],
    ]);
    expect(Object.keys(log[0])).toEqual(['v', 'id', 'parent', 'type', 'format', 'created_at', 'message_count', 'token_count', 'summary', 'branches', 'links', 'title', 'pr']);
    const [branch] = json(store, ['branch']);
    expect(branch).toEqual({ v: 1, name: BRANCH, id: log[0].id, type: 'delta', created_at: log[0].created_at, summary: 'Thanks, merge it.', title: 'Fix and merge todo list blank-line bug', pr: PR });
  });

  it('a chain without such lines has neither field', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl')], { env: FIXED_ENV }).code).toBe(0);
    for (const r of [...json(store, ['log', 'claude/3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83']), ...json(store, ['branch'])]) expect(['title', 'pr'].filter((k) => k in r)).toEqual([]);
  });

  it('translated to Codex and Gemini CLI: the conversation (tool call and result paired), none of the UI lines', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'claude-code', FILE], { env: FIXED_ENV }).code).toBe(0);
    const codex = ctx(store, ['materialize', BRANCH, '--stop', 'root', '--format', 'codex-rollout-v1'], { env: FIXED_ENV });
    expect(codex.code).toBe(0);
    const items = codex.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).filter((l) => l.type === 'response_item').map((l) => [l.payload.type, l.payload.role ?? l.payload.name ?? l.payload.call_id]);
    expect(items).toEqual([
      ['message', 'user'],
      ['function_call', 'Read'],
      ['function_call_output', 'toolu_1'],
      ['message', 'assistant'],
      ['message', 'user'],
      ['message', 'assistant'],
    ]);
    for (const ui of ['ai-title', 'aiTitle', 'pr-link', 'bridge-session', 'permission-mode', 'file-history-delta', 'While you were away', "Today's date"]) expect(codex.stdout).not.toContain(ui);
    const gemini = ctx(store, ['materialize', BRANCH, '--stop', 'root', '--format', 'gemini-cli-jsonl-v1'], { env: FIXED_ENV });
    expect([gemini.code, gemini.stderr]).toEqual([0, 'ctx: translated claude-code-v1 → gemini-cli-jsonl-v1 (structural)\n']);
    expect(gemini.stdout).toContain('Thanks, merge it.');
    for (const ui of ['Fix todo list', 'pull/42', 'While you were away', "Today's date"]) expect(gemini.stdout).not.toContain(ui);
  });
});
