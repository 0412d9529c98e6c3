// `ctx hook gemini-cli`, `ctx hooks … gemini-cli` and `ctx export gemini-cli` on the project's
// fixtures, as Gemini CLI would call and read them (the real CLI runs in gemini-cli.test.ts).
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, ctx, fsck, git, newStore, refSnapshot, tempDir } from './helpers.js';

const LIVE = join(FIXTURES, 'gemini-cli', 'session-2026-01-10T09-00-aaaa1111.jsonl');
const SESSION = 'aaaa1111-2222-4333-8444-555566667777';
const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };

const input = (file: string, cwd: string, event = 'AfterAgent') =>
  JSON.stringify({ session_id: SESSION, transcript_path: file, cwd, hook_event_name: event, timestamp: '2026-01-10T09:00:09.000Z' });
const hookLog = (store: string) => (existsSync(join(store, 'ctx', 'hook.log')) ? readFileSync(join(store, 'ctx', 'hook.log'), 'utf8') : '');

describe('ctx hook gemini-cli', () => {
  it('appends what the session file holds past the chain after every turn: the chain is the file', () => {
    const store = newStore();
    const dir = tempDir();
    const file = join(dir, 'session-2026-01-10T09-00-aaaa1111.jsonl');
    const bytes = readFileSync(LIVE);
    writeFileSync(file, '');
    // one turn at a time, and a cut in the middle of a line (Gemini writing it)
    const cuts = [bytes.indexOf('{"id":"u2"'), bytes.indexOf('{"id":"u3"') + 5, bytes.length];
    let at = 0;
    for (const cut of cuts) {
      appendFileSync(file, bytes.subarray(at, cut));
      at = cut;
      const r = ctx(store, ['hook', 'gemini-cli'], { input: input(file, dir), env: ENV });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
      const whole = bytes.subarray(0, bytes.lastIndexOf(10, cut - 1) + 1);
      expect(ctx(store, ['materialize', `gemini/${SESSION}`, '--stop', 'root'], { env: ENV }).bytes.equals(whole)).toBe(true);
    }
    expect(hookLog(store)).toBe('');
    const log = ctx(store, ['log', `gemini/${SESSION}`, '--json'], { env: ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(log.map((c) => [c.summary, c.format])).toEqual([
      ['Show a.txt', 'gemini-cli-jsonl-v1'],
      ['Delete b.txt', 'gemini-cli-jsonl-v1'],
      ['List the files', 'gemini-cli-jsonl-v1'],
    ]);
    const meta = JSON.parse(git(store, ['show', `gemini/${SESSION}:meta.json`]));
    expect(meta).toMatchObject({ template: 'gemini-cli', session_id: SESSION, checkpoint: 'turn_boundary', source: { file: 'session-2026-01-10T09-00-aaaa1111.jsonl' } });
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });

  it('starts a fork branch when the file changed before what the chain holds', () => {
    const store = newStore();
    const dir = tempDir();
    const file = join(dir, 'session-2026-01-10T09-00-aaaa1111.jsonl');
    writeFileSync(file, readFileSync(LIVE));
    expect(ctx(store, ['hook', 'gemini-cli'], { input: input(file, dir), env: ENV }).code).toBe(0);
    const rewritten = readFileSync(LIVE, 'utf8').replace('a.txt says alpha.', 'a.txt says beta..');
    writeFileSync(file, `${rewritten}{"$set":{"lastUpdated":"2026-01-10T09:00:10.000Z"}}\n`);
    const r = ctx(store, ['hook', 'gemini-cli'], { input: input(file, dir, 'SessionEnd'), env: ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(hookLog(store)).toMatch(/\tSessionEnd\taaaa1111-2222-4333-8444-555566667777\tsession file changed: started gemini\/aaaa1111-2222-4333-8444-555566667777\.fork-1 at ctx-[0-9a-f]{12}\n$/);
    expect(ctx(store, ['materialize', `gemini/${SESSION}.fork-1`, '--stop', 'root'], { env: ENV }).bytes.equals(readFileSync(file))).toBe(true);
    expect(ctx(store, ['materialize', `gemini/${SESSION}`, '--stop', 'root'], { env: ENV }).bytes.equals(readFileSync(LIVE))).toBe(true);
  });

  it('exits 0 on bad input and on events it does not capture, writing nothing', () => {
    const store = newStore();
    const dir = tempDir();
    const cases: [string, string][] = [
      ['not json', 'ctx hook: -\t-\t-\thook input is not JSON: not json'],
      ['{"hook_event_name":"AfterAgent"}', 'ctx hook: -\t-\t-\thook input has no session_id'],
      [JSON.stringify({ session_id: SESSION, hook_event_name: 'AfterAgent', cwd: dir }), 'ctx hook: -\t-\t-\thook input has no transcript_path'],
    ];
    for (const [stdin, line] of cases) {
      const r = ctx(store, ['hook', 'gemini-cli'], { input: stdin, env: ENV });
      expect([r.code, r.stdout, r.stderr.replace(/^ctx hook: \S+\t/, 'ctx hook: -\t')]).toEqual([0, '', `${line}\n`]);
    }
    // other events, and no session file (Gemini records none): nothing to do
    for (const event of ['BeforeTool', 'SessionStart', 'PreCompress']) expect(ctx(store, ['hook', 'gemini-cli'], { input: input(LIVE, dir, event), env: ENV })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(ctx(store, ['hook', 'gemini-cli'], { input: input('', dir), env: ENV })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(refSnapshot(store)).toBe('');
    // a session file that is not there: logged in the store, still exit 0
    const missing = ctx(store, ['hook', 'gemini-cli'], { input: input(join(dir, 'gone.jsonl'), dir), env: ENV });
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([0, '', '']);
    expect(hookLog(store)).toMatch(new RegExp(`\\tAfterAgent\\t${SESSION}\\ttranscript not found: ${join(dir, 'gone.jsonl')}\\n$`));
  });
});

describe('ctx hooks … gemini-cli', () => {
  it("installs into the user's ~/.gemini/settings.json beside what is there, and uninstall restores it", () => {
    const home = tempDir();
    const file = join(home, '.gemini', 'settings.json');
    mkdirSync(join(home, '.gemini'));
    const original = '{\n  "security": {"auth": {"selectedType": "gemini-api-key"}}\n}\n';
    writeFileSync(file, original);
    const store = join(tempDir(), '.ctx');
    const env = { HOME: home };
    const installed = ctx(store, ['hooks', 'install', 'gemini-cli', '--user'], { env });
    expect([installed.code, installed.stderr]).toEqual([0, `installed in ${file} (backup: ${file}.ctx-backup)\n`]);
    const settings = JSON.parse(readFileSync(file, 'utf8'));
    expect(settings.security).toEqual({ auth: { selectedType: 'gemini-api-key' } });
    expect(Object.keys(settings.hooks)).toEqual(['AfterAgent', 'SessionEnd']);
    expect(settings.hooks.AfterAgent[0].hooks[0]).toMatchObject({ type: 'command', name: 'ctx', timeout: 30000, command: expect.stringMatching(/ hook gemini-cli$/) });
    expect(ctx(store, ['hooks', 'install', 'gemini-cli', '--user'], { env }).stderr).toBe(`${file}: nothing to change\n`);
    const status = ctx(store, ['hooks', 'status', 'gemini-cli', '--user'], { env });
    expect(status.stdout).toMatch(/^AfterAgent\t\S+ \S+ hook gemini-cli\nSessionEnd\t\S+ \S+ hook gemini-cli\n$/);
    // Claude Code's entries are another runtime's: gemini-cli's uninstall leaves them
    expect(ctx(store, ['hooks', 'uninstall', 'gemini-cli', '--user'], { env }).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(existsSync(`${file}.ctx-backup`)).toBe(false);
  });

  it('refuses a settings.json that is not JSON, changing nothing', () => {
    const proj = tempDir();
    mkdirSync(join(proj, '.gemini'));
    writeFileSync(join(proj, '.gemini', 'settings.json'), '{"hooks": [');
    const r = ctx(join(proj, '.ctx'), ['hooks', 'install', 'gemini-cli'], { cwd: proj });
    expect([r.code, r.stdout, r.stderr.replace(/\(.*\)/, '(…)')]).toEqual([1, '', `ctx: ${join(proj, '.gemini', 'settings.json')} is not JSON (…); nothing changed\n`]);
    expect(readFileSync(join(proj, '.gemini', 'settings.json'), 'utf8')).toBe('{"hooks": [');
  });
});

describe('ctx export gemini-cli', () => {
  it("writes the session Gemini CLI's loader leaves, in the project's chats directory it registers", () => {
    const store = newStore();
    expect(ctx(store, ['import', 'gemini-cli', LIVE], { env: ENV }).code).toBe(0);
    const home = tempDir();
    const proj = join(tempDir(), 'My Project');
    mkdirSync(proj);
    // another directory already owns the name `my-project`
    mkdirSync(join(home, '.gemini', 'tmp', 'my-project'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'tmp', 'my-project', '.project_root'), '/elsewhere/my-project');
    const id = '33333333-4444-4555-8666-777777777777';
    const r = ctx(store, ['export', 'gemini-cli', `gemini/${SESSION}`, '--session-id', id], { env: { ...ENV, HOME: home }, cwd: proj });
    const file = join(home, '.gemini', 'tmp', 'my-project-1', 'chats', 'session-2026-01-02T03-04-33333333.jsonl');
    expect([r.code, r.stdout, r.stderr]).toEqual([0, `gemini --resume ${id}\n`, `wrote ${file} (8 lines from ctx-cd5ae5ab63d4); run it in ${proj}\n`]);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(JSON.parse(lines[0])).toEqual({
      sessionId: id,
      projectHash: createHash('sha256').update(proj).digest('hex'),
      startTime: '2026-01-02T03:04:05.678Z',
      lastUpdated: '2026-01-02T03:04:05.678Z',
      summary: 'Files in the project',
      kind: 'main',
    });
    // each message once, as the updates left it: g1 with its tool call, u2 and g3 rewound away
    expect(lines.slice(1, -1).map((l) => JSON.parse(l).id)).toEqual(['u1', 'g1', 'g2', 'u3', 'g4', 'u4', 'g5']);
    expect(JSON.parse(lines[2]).toolCalls[0].id).toBe('ls-1');
    expect(JSON.parse(readFileSync(join(home, '.gemini', 'projects.json'), 'utf8'))).toEqual({ projects: { [proj]: 'my-project-1' } });
    expect(readFileSync(join(home, '.gemini', 'tmp', 'my-project-1', '.project_root'), 'utf8')).toBe(proj);
    expect(readFileSync(join(home, '.gemini', 'history', 'my-project-1', '.project_root'), 'utf8')).toBe(proj);
    // the same session again: refused, nothing overwritten
    const again = ctx(store, ['export', 'gemini-cli', `gemini/${SESSION}`, '--session-id', id], { env: { ...ENV, HOME: home }, cwd: proj });
    expect([again.code, again.stdout, again.stderr]).toEqual([1, '', `ctx: ${file} already exists\n`]);
  });

  it('refuses a session id that is not a UUID and an empty context, writing nothing', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'gemini-cli', LIVE], { env: ENV }).code).toBe(0);
    const home = tempDir();
    const bad = ctx(store, ['export', 'gemini-cli', `gemini/${SESSION}`, '--session-id', 'nope'], { env: { ...ENV, HOME: home } });
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([2, '', 'ctx: --session-id must be a UUID: nope\n']);
    expect(existsSync(join(home, '.gemini'))).toBe(false);
  });
});
