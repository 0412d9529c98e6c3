// `ctx hooks install|uninstall|status codex` writes ctx's hooks into Codex's hooks.json, trusts them
// in config.toml and sets its top-level `notify`, refuses to replace another notify program, and
// removes exactly what it added; `ctx hook codex` always exits 0.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, ctx, tempDir } from './helpers.js';

const ours = () => JSON.stringify([process.execPath, CTX, 'hook', 'codex']);

function setup(text?: string) {
  const dir = tempDir();
  const codexHome = join(dir, 'codex-home');
  const config = join(codexHome, 'config.toml');
  const hooksJson = join(codexHome, 'hooks.json');
  mkdirSync(codexHome, { recursive: true });
  if (text !== undefined) {
    writeFileSync(config, text);
  }
  const store = join(dir, '.ctx');
  const run = (...args: string[]) => ctx(store, ['hooks', ...args, 'codex', '--user'], { env: { CODEX_HOME: codexHome }, cwd: dir });
  return { dir, config, hooksJson, store, run };
}

const EVENTS = [
  ['Stop', 'stop'],
  ['PreCompact', 'pre_compact'],
  ['PostCompact', 'post_compact'],
  ['SessionEnd', 'session_end'],
] as const;
const command = () => JSON.parse(ours()).join(' ');
const listed = (cmd: string | null) => `${EVENTS.map(([e]) => `${e}\t${cmd ?? '-'}\n`).join('')}notify\t${cmd ?? '-'}\n`;
/** What Codex 0.171 hashes for a hook it is asked to trust (checked against the real CLI in codex-cli.test.ts). */
const hash = (event: string) => `sha256:${createHash('sha256').update(`{"event_name":"${event}","hooks":[{"async":false,"command":${JSON.stringify(command())},"timeout":30,"type":"command"}]}`).digest('hex')}`;
const trust = (hooksJson: string, group = 0) => EVENTS.map(([, e]) => `[hooks.state.${JSON.stringify(`${hooksJson}:${e}:${group}:0`)}]\ntrusted_hash = "${hash(e)}"\n`).join('\n');
const entries = () => Object.fromEntries(EVENTS.map(([e]) => [e, [{ hooks: [{ type: 'command', command: command(), timeout: 30 }] }]]));

describe('ctx hooks … codex', () => {
  it("writes ctx's hooks into $CODEX_HOME/hooks.json, trusts each in config.toml beside notify; uninstall removes exactly those and the files it made", () => {
    const { config, hooksJson, run } = setup();
    expect(run('install')).toMatchObject({ code: 0, stdout: listed(command()), stderr: `installed in ${hooksJson}\ncovers every codex session of this user (${hooksJson})\n` });
    expect(JSON.parse(readFileSync(hooksJson, 'utf8'))).toEqual({ hooks: entries() });
    expect(readFileSync(config, 'utf8')).toBe(`notify = ${ours()}\n\n${trust(hooksJson)}`);
    expect(run('install')).toMatchObject({ code: 0, stderr: `${hooksJson}: nothing to change\ncovers every codex session of this user (${hooksJson})\n` });
    expect(run('status')).toMatchObject({ code: 0, stdout: listed(command()) });
    expect(run('uninstall')).toMatchObject({ code: 0, stdout: listed(null), stderr: `removed from ${hooksJson}\n` });
    expect(existsSync(config)).toBe(false);
    expect(existsSync(hooksJson)).toBe(false);
    expect(run('uninstall')).toMatchObject({ code: 0, stderr: `${hooksJson}: nothing to change\n` });
  });

  it('adds notify before the first table and the trust tables at the end, keeps every other byte, and takes them out again', () => {
    const original = '# my settings\nmodel = "o3"   # fast\n\n[profiles.deep]\nmodel = "o3-pro"\nnotify = ["not", "top-level"]\n';
    const { config, hooksJson, run } = setup(original);
    expect(run('install').code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(`# my settings\nmodel = "o3"   # fast\n\nnotify = ${ours()}\n[profiles.deep]\nmodel = "o3-pro"\nnotify = ["not", "top-level"]\n\n${trust(hooksJson)}`);
    expect(run('status')).toMatchObject({ code: 0, stdout: listed(command()) });
    expect(run('uninstall').code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(original);
  });

  it("appends its group after the user's own hooks, trusted at its index; uninstall gives back the user's hooks.json byte for byte", () => {
    const { config, hooksJson, run } = setup('model = "o3"\n');
    const mine = '{\n  "hooks": {\n    "Stop": [\n      {\n        "hooks": [\n          {\n            "type": "command",\n            "command": "notify-send done"\n          }\n        ]\n      }\n    ]\n  }\n}\n';
    writeFileSync(hooksJson, mine);
    expect(run('install').code).toBe(0);
    expect(JSON.parse(readFileSync(hooksJson, 'utf8')).hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'notify-send done' }] }, ...entries().Stop]);
    expect(readFileSync(config, 'utf8')).toContain(`[hooks.state.${JSON.stringify(`${hooksJson}:stop:1:0`)}]\ntrusted_hash = "${hash('stop')}"\n`);
    expect(readFileSync(config, 'utf8')).toContain(`[hooks.state.${JSON.stringify(`${hooksJson}:pre_compact:0:0`)}]\n`);
    expect(run('uninstall').code).toBe(0);
    expect(readFileSync(hooksJson, 'utf8')).toBe(mine);
    expect(readFileSync(config, 'utf8')).toBe('model = "o3"\n');
  });

  it('replaces an older ctx notify written over several lines, and nothing else', () => {
    const { config, hooksJson, run } = setup(`model = "o3"\nnotify = [\n  "/old/node",  # the old one\n  '/old/ctx/bin/ctx',\n  "hook",\n  "codex",\n]\nsandbox_mode = "read-only"\n`);
    expect(run('install').code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(`model = "o3"\nnotify = ${ours()}\nsandbox_mode = "read-only"\n\n${trust(hooksJson)}`);
  });

  it('refuses to replace another notify program: one line, exit 1, nothing changed, no hooks.json', () => {
    const original = 'notify = ["notify-send", "Codex"]\n[tui]\nnotifications = true\n';
    const { config, hooksJson, run } = setup(original);
    const r = run('install');
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `ctx: ${config}: notify already runs another program (notify = ["notify-send", "Codex"]); nothing changed\n`]);
    expect(readFileSync(config, 'utf8')).toBe(original);
    expect(existsSync(hooksJson)).toBe(false);
    expect(run('uninstall')).toMatchObject({ code: 0, stdout: listed(null), stderr: `${hooksJson}: nothing to change\n` });
    expect(run('status')).toMatchObject({ code: 0, stdout: listed(null) });
  });

  it('refuses a config.toml the TOML parser cannot read, with its line and column', () => {
    const original = 'notify = [\n  "a",\n';
    const { config, hooksJson, run } = setup(original);
    expect(run('install')).toMatchObject({ code: 1, stderr: `ctx: ${config}: not TOML (line 3, column 1: invalid value); nothing changed\n` });
    expect(readFileSync(config, 'utf8')).toBe(original);
    expect(existsSync(hooksJson)).toBe(false);
  });

  it("without --user: the project's .codex/hooks.json at the git top level, trusted (and notify) in the user's config.toml", () => {
    const { dir, config } = setup();
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'sub'));
    const project = join(dir, '.codex', 'hooks.json');
    const r = ctx(join(dir, '.ctx'), ['hooks', 'install', 'codex'], { env: { CODEX_HOME: join(dir, 'codex-home') }, cwd: join(dir, 'sub') });
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([0, `installed in ${project}`]);
    expect(r.stderr).toContain(`trust_level = "trusted"`);
    expect(JSON.parse(readFileSync(project, 'utf8'))).toEqual({ hooks: entries() });
    expect(readFileSync(config, 'utf8')).toBe(`notify = ${ours()}\n\n${trust(project)}`);
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
    // hooks.json input on stdin: an event ctx does not capture writes nothing; one without its rollout is logged
    const stdin = (input: string) => ctx(store, ['hook', 'codex'], { env: { CODEX_HOME: join(dir, 'codex-home') }, cwd: dir, input });
    expect(stdin('{"hook_event_name":"UserPromptSubmit","session_id":"t","transcript_path":"x","cwd":"."}')).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(stdin('{"hook_event_name":"Stop","session_id":"t","cwd":"."}')).toMatchObject({ code: 0, stdout: '', stderr: expect.stringMatching(/^ctx hook: \S+\t-\t-\thook input has no transcript_path\n$/) });
    expect(existsSync(store)).toBe(false);
    const missing = hook(`{"type":"agent-turn-complete","thread-id":"0199aaaa-0000-7000-8000-000000000000","turn-id":"x","cwd":"${dir}"}`);
    expect(missing).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(store, 'ctx', 'hook.log'), 'utf8')).toMatch(
      new RegExp(`^\\S+\\tagent-turn-complete\\t0199aaaa-0000-7000-8000-000000000000\\tno rollout of thread 0199aaaa-0000-7000-8000-000000000000 under ${join(dir, 'codex-home')}/sessions\\n$`),
    );
  });
});
