// Live capture from the real `claude` CLI: `ctx hooks install claude-code`, then `claude -p` turns
// (a tool call, then text) against the mock API; the chain must hold the transcript byte for byte.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claudeEnv, describeClaude, runClaude, toolThenText, transcripts, type ClaudeEnv } from './claude-cli.js';
import { ctx, git, tempDir } from './helpers.js';
import { startMockApi, type MockApi } from './mock-anthropic-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi(toolThenText());
});
afterAll(() => api?.close());

/** A git project with ctx's hooks installed in it and its store in `.ctx`. */
function project(): { dir: string; store: string; c: ClaudeEnv } {
  const root = tempDir();
  const dir = join(root, 'project');
  mkdirSync(join(dir, 'sub'), { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  const store = join(dir, '.ctx');
  const c = claudeEnv(root, api.url);
  expect(ctx(store, ['init', store]).code).toBe(0);
  const r = ctx(store, ['hooks', 'install', 'claude-code'], { cwd: dir, env: { CLAUDE_CONFIG_DIR: c.config, HOME: c.home } });
  expect(r.code).toBe(0);
  return { dir, store, c };
}

const materialized = (store: string, branch: string, stop = 'root') => ctx(store, ['materialize', branch, '--stop', stop]).bytes;

describeClaude('live capture of the real claude CLI (2.1.332)', () => {
  it('installs hooks with an explicit timeout; each claude -p turn lands on claude/<session>, byte-exact with the transcript', async () => {
    const { dir, store, c } = project();
    const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
    for (const event of ['Stop', 'PreCompact', 'SessionEnd', 'SessionStart']) expect(settings.hooks[event][0].hooks[0].timeout).toBe(30);

    const first = await runClaude(c, dir, ['-p', 'say a word', '--allowedTools', 'Bash']);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('answer 1\n');
    const [t] = transcripts(c);
    const branch = `claude/${t.session}`;
    expect(materialized(store, branch).equals(readFileSync(t.file))).toBe(true);
    const commits = git(store, ['rev-list', '--count', branch]).trim();

    const second = await runClaude(c, dir, ['-p', '--resume', t.session, 'again', '--allowedTools', 'Bash']);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('answer 2\n');
    expect(transcripts(c)).toHaveLength(1);
    expect(materialized(store, branch).equals(readFileSync(t.file))).toBe(true);
    expect(Number(git(store, ['rev-list', '--count', branch]))).toBeGreaterThan(Number(commits));
    expect(ctx(store, ['branch', '--json']).stdout).not.toMatch(/fork-/);
  }, 120_000);

  it('hooks install says it covers sessions started in its directory, not subdirectories; installed in the subdirectory too, they are captured into the project store', async () => {
    const { dir, store, c } = project();
    const sub = join(dir, 'sub');
    const r = await runClaude(c, sub, ['-p', 'from below', '--allowedTools', 'Bash']);
    expect(r.code).toBe(0);
    expect(ctx(store, ['branch']).stdout).toBe('');

    const install = ctx(store, ['hooks', 'install', 'claude-code'], { cwd: sub, env: { CLAUDE_CONFIG_DIR: c.config, HOME: c.home } });
    expect(install.stderr).toContain(`covers claude sessions started in ${sub}, not in its subdirectories`);
    const [t] = transcripts(c);
    expect((await runClaude(c, sub, ['-p', '--resume', t.session, 'again', '--allowedTools', 'Bash'])).code).toBe(0);
    expect(materialized(store, `claude/${t.session}`).toString()).toBe(readFileSync(t.file, 'utf8'));
  }, 120_000);
});
