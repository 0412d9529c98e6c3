// An error a command fixes names that command in its one line: scripts and pipes see no `hint:` line.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctx, newStore, tempDir } from './helpers.js';

describe('errors name the command that fixes them', () => {
  it('no store: ctx init', () => {
    const store = join(tempDir(), '.ctx');
    expect(ctx(store, ['log', 'main'])).toMatchObject({ code: 4, stdout: '', stderr: `ctx: no context store found (looked for ${store}): run ctx init, or pass --store PATH\n` });
  });

  it('no remote: ctx remote add, with the name asked for', () => {
    const store = newStore();
    expect(ctx(store, ['push'])).toMatchObject({ code: 4, stdout: '', stderr: "ctx: no remote 'origin': add it with ctx remote add origin URL\n" });
    expect(ctx(store, ['fetch', 'team'])).toMatchObject({ code: 4, stdout: '', stderr: "ctx: no remote 'team': add it with ctx remote add team URL\n" });
    // with remotes, the message lists them instead
    expect(ctx(store, ['remote', 'add', 'up', 'https://git.example.com/team/agent-context.git']).code).toBe(0);
    expect(ctx(store, ['fetch', 'team'])).toMatchObject({ code: 4, stderr: "ctx: no remote 'team' (remotes: up)\n" });
  });

  it('no state: ctx state init BRANCH; no saved session: ctx sessions', () => {
    const store = newStore();
    const made = ctx(store, ['checkpoint', '-b', 'plain', '--format', 'openai-chat-v1', '-'], { input: '[{"role":"user","content":"hi"}]' });
    expect(made.code).toBe(0);
    expect(ctx(store, ['state', 'get', 'plain', 'k'])).toMatchObject({ code: 4, stderr: 'ctx: plain has no structured state: ctx state init plain adds it\n' });
    expect(ctx(store, ['restore', 'nope'])).toMatchObject({ code: 4, stderr: 'ctx: no saved session nope: ctx sessions lists them\n' });
  });
});
