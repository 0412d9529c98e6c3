// What the runtimes' end-to-end MCP tests ask ctx for: a store holding the Claude Code fixture session
// that read, edited and ran a command on src/auth.ts, and what the `files` tool answers for that path.
import { join } from 'node:path';
import { expect } from 'vitest';
import { FIXTURES, ctx } from './helpers.js';
import { FIND_ENV } from './find-store.js';

export const SESSION = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
export const COMMIT = 'ctx-9fc7b5d26e76fb6e436cb31b951d0b4a4e650f65';

const touch = (path: string, action: string, tool: string, entry: number, at: string) => ({ v: 1, path, action, tool, commit: COMMIT, branch: 'alice/auth', session: SESSION, entry, at });
const ABS = '/home/alice/app/src/auth.ts';
/** Newest first: the Bash run, the two edits, the read; what `ctx files src/auth.ts --json` prints too. */
export const TOUCHES = [
  touch('src/auth.ts', 'run', 'Bash', 11, '2026-11-20T09:01:12.000Z'),
  touch('src/auth.ts', 'edit', 'MultiEdit', 7, '2026-11-20T09:01:08.000Z'),
  touch(ABS, 'edit', 'Edit', 3, '2026-11-20T09:01:04.000Z'),
  touch(ABS, 'read', 'Read', 1, '2026-11-20T09:01:01.000Z'),
];

/** The files tool's structured answer, and its text: one line per touch. */
export const ANSWER = { touches: TOUCHES, total: 4, truncated: false };
export const ANSWER_TEXT = TOUCHES.map((t) => `${t.at} ${t.action} ${t.tool} ${t.commit} ${t.branch} ${t.session} ${t.path}`).join('\n');

/** `<dir>/.ctx` with the session imported on alice/auth (fixed clock and identity: exact ids); checked against `ctx files`. */
export function touchedStore(dir: string): string {
  const store = join(dir, '.ctx');
  expect(ctx(store, ['init', store], { env: FIND_ENV }).code).toBe(0);
  expect(ctx(store, ['import', 'claude-code', join(FIXTURES, 'find', 'claude-tools.jsonl'), '-b', 'alice/auth'], { env: FIND_ENV }).code).toBe(0);
  const cli = ctx(store, ['files', 'src/auth.ts', '--json'], { env: FIND_ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  expect(cli).toEqual(TOUCHES);
  return store;
}
