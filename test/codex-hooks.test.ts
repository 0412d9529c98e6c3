// `ctx hooks install|uninstall|status codex` edits only the top-level `notify` key of Codex's
// config.toml, refuses to replace another program, and `ctx hook codex` always exits 0.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, ctx, tempDir } from './helpers.js';

const ours = () => JSON.stringify([process.execPath, CTX, 'hook', 'codex']);

function setup(text?: string) {
  const dir = tempDir();
  const codexHome = join(dir, 'codex-home');
  const config = join(codexHome, 'config.toml');
  if (text !== undefined) {
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(config, text);
  }
  const store = join(dir, '.ctx');
  const run = (...args: string[]) => ctx(store, ['hooks', ...args, 'codex', '--user'], { env: { CODEX_HOME: codexHome }, cwd: dir });
  return { dir, config, store, run };
}

describe('ctx hooks … codex', () => {
  it('creates config.toml with the notify line alone, and uninstall removes the file it made', () => {
    const { config, run } = setup();
    expect(run('install')).toMatchObject({ code: 0, stdout: `notify\t${JSON.parse(ours()).join(' ')}\n`, stderr: `installed in ${config}\n` });
    expect(readFileSync(config, 'utf8')).toBe(`notify = ${ours()}\n`);
    expect(run('uninstall')).toMatchObject({ code: 0, stdout: 'notify\t-\n', stderr: `removed from ${config}\n` });
    expect(existsSync(config)).toBe(false);
    expect(run('uninstall')).toMatchObject({ code: 0, stderr: `${config}: nothing to change\n` });
  });

  it('adds a top-level key before the first table, keeps every other byte, and takes it out again', () => {
    const original = '# my settings\nmodel = "o3"   # fast\n\n[profiles.deep]\nmodel = "o3-pro"\nnotify = ["not", "top-level"]\n';
    const { config, run } = setup(original);
    expect(run('install').code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(`# my settings\nmodel = "o3"   # fast\n\nnotify = ${ours()}\n[profiles.deep]\nmodel = "o3-pro"\nnotify = ["not", "top-level"]\n`);
    expect(run('status')).toMatchObject({ code: 0, stdout: `notify\t${JSON.parse(ours()).join(' ')}\n` });
    expect(run('uninstall').code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(original);
  });

  it('replaces an older ctx entry written over several lines, and nothing else', () => {
    const { config, run } = setup(`model = "o3"\nnotify = [\n  "/old/node",  # the old one\n  '/old/ctx/bin/ctx',\n  "hook",\n  "codex",\n]\nsandbox_mode = "read-only"\n`);
    expect(run('install').code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(`model = "o3"\nnotify = ${ours()}\nsandbox_mode = "read-only"\n`);
  });

  it('refuses to replace another notify program: one line, exit 1, nothing changed', () => {
    const original = 'notify = ["notify-send", "Codex"]\n[tui]\nnotifications = true\n';
    const { config, run } = setup(original);
    const r = run('install');
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `ctx: ${config}: notify already runs another program (notify = ["notify-send", "Codex"]); nothing changed\n`]);
    expect(readFileSync(config, 'utf8')).toBe(original);
    expect(run('uninstall')).toMatchObject({ code: 0, stdout: 'notify\t-\n', stderr: `${config}: nothing to change\n` });
    expect(run('status')).toMatchObject({ code: 0, stdout: 'notify\t-\n' });
  });

  it('refuses a config.toml the TOML parser cannot read, with its line and column', () => {
    const original = 'notify = [\n  "a",\n';
    const { config, run } = setup(original);
    expect(run('install')).toMatchObject({ code: 1, stderr: `ctx: ${config}: not TOML (line 3, column 1: invalid value); nothing changed\n` });
    expect(readFileSync(config, 'utf8')).toBe(original);
  });

  it('installs in the user config without --user too: Codex reads notify from nowhere else', () => {
    const { dir, config } = setup();
    mkdirSync(join(dir, '.git'));
    const r = ctx(join(dir, '.ctx'), ['hooks', 'install', 'codex'], { env: { CODEX_HOME: join(dir, 'codex-home') }, cwd: dir });
    expect([r.code, r.stderr]).toEqual([0, `installed in ${config}\n`]);
    expect(existsSync(join(dir, '.codex'))).toBe(false);
  });
});

describe('ctx hook codex', () => {
  it('exits 0 and logs what it could not capture: bad JSON, no thread id, a thread without a rollout', () => {
    const { dir, store } = setup();
    const hook = (input: string) => ctx(store, ['hook', 'codex', input], { env: { CODEX_HOME: join(dir, 'codex-home') }, cwd: dir });
    expect(hook('{"type":"agent-turn-complete","cwd":"."}')).toMatchObject({ code: 0, stdout: '', stderr: expect.stringMatching(/^ctx hook: \S+\t-\t-\tnotify input has no thread-id\n$/) });
    expect(hook('not json')).toMatchObject({ code: 0, stdout: '', stderr: expect.stringMatching(/\thook input is not JSON: not json\n$/) });
    // another notification type: nothing to capture, nothing written
    expect(hook('{"type":"approval-requested","thread-id":"t"}')).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(store)).toBe(false);
    const missing = hook(`{"type":"agent-turn-complete","thread-id":"0199aaaa-0000-7000-8000-000000000000","turn-id":"x","cwd":"${dir}"}`);
    expect(missing).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(store, 'ctx', 'hook.log'), 'utf8')).toMatch(
      new RegExp(`^\\S+\\tagent-turn-complete\\t0199aaaa-0000-7000-8000-000000000000\\tno rollout of thread 0199aaaa-0000-7000-8000-000000000000 under ${join(dir, 'codex-home')}/sessions\\n$`),
    );
  });
});
