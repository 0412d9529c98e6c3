// Live capture from the real `claude` CLI: `ctx hooks install claude-code`, then `claude -p` turns
// (a tool call, then text) against the mock API; the chain must hold the transcript byte for byte.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claudeEnv, describeClaude, runClaude, toolThenText, transcripts, type ClaudeEnv } from './claude-cli.js';
import { ROOT, ctx, git, tempDir } from './helpers.js';
import { startMockApi, type MockApi } from './mock-anthropic-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi(toolThenText());
});
afterAll(() => api?.close());

/** A git project with its store in `.ctx` and, unless `hooks` is false, ctx's hooks installed in it. */
function project(hooks = true): { dir: string; store: string; c: ClaudeEnv } {
  const root = tempDir();
  const dir = join(root, 'project');
  mkdirSync(join(dir, 'sub'), { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  const store = join(dir, '.ctx');
  const c = claudeEnv(root, api.url);
  expect(ctx(store, ['init', store]).code).toBe(0);
  if (!hooks) return { dir, store, c };
  const r = ctx(store, ['hooks', 'install', 'claude-code'], { cwd: dir, env: { CLAUDE_CONFIG_DIR: c.config, HOME: c.home } });
  expect(r.code).toBe(0);
  return { dir, store, c };
}

const materialized = (store: string, branch: string, stop = 'root') => ctx(store, ['materialize', branch, '--stop', stop]).bytes;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

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

  it('reports the wall time a claude -p turn gains with ctx hooks installed (printed, not asserted); the hooked turns are captured byte-exact, the plain ones write no chain', async () => {
    const plain = project(false);
    const hooked = project();
    const wall: Record<'plain' | 'hooked', number[]> = { plain: [], hooked: [] };
    // the same turn (a tool call, then text), each variant twice, interleaved plain-hooked-hooked-plain so drift hits both alike
    for (const kind of ['plain', 'hooked', 'hooked', 'plain'] as const) {
      const p = kind === 'plain' ? plain : hooked;
      const start = performance.now();
      const r = await runClaude(p.c, p.dir, ['-p', 'say a word', '--allowedTools', 'Bash']);
      wall[kind].push(performance.now() - start);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^answer \d+\n$/);
    }
    expect(ctx(plain.store, ['branch']).stdout).toBe('');
    expect(git(plain.store, ['for-each-ref', 'refs/heads/'])).toBe('');
    const sessions = transcripts(hooked.c);
    expect(sessions).toHaveLength(2);
    for (const t of sessions) expect(materialized(hooked.store, `claude/${t.session}`).equals(readFileSync(t.file))).toBe(true);

    const [a, b] = [median(wall.plain), median(wall.hooked)];
    const line = `claude -p turn, wall ms (median of 2 each, interleaved): without ctx hooks ${a.toFixed(0)}, with ${b.toFixed(0)}, added ${(b - a).toFixed(0)} (runs: ${wall.plain.map((x) => x.toFixed(0)).join(', ')} / ${wall.hooked.map((x) => x.toFixed(0)).join(', ')})`;
    console.log(line);
    mkdirSync(join(ROOT, 'test-output'), { recursive: true });
    writeFileSync(join(ROOT, 'test-output', 'claude-hook-wall.txt'), `${line}\n`);
  }, 300_000);
});
