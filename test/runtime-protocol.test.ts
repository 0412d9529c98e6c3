// Runtimes from outside (docs/runtime-protocol.md): the toy runtime (fixtures/runtimes, Python 3)
// run as a real process from PATH through `ctx runtime`, `ctx import`, `ctx hook` and `ctx export`;
// its broken variants fail with the reason named; names that could be paths run nothing.
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, FIXTURES, ctx, fsck, newStore, tempDir } from './helpers.js';

const RUNTIMES = join(FIXTURES, 'runtimes');
const TOY = join(RUNTIMES, 'ctx-runtime-toy');
const SESSION_FILE = join(FIXTURES, 'toy', 'session.jsonl');
const PATH = `${RUNTIMES}${delimiter}${process.env.PATH}`;
// a generous limit for the calls that must answer (python starts slowly on a loaded machine); the hang tests set their own
const env = (extra: Record<string, string> = {}) => ({ ...FIXED_ENV, PATH, HOME: tempDir(), CTX_RUNTIME_TIMEOUT_MS: '120000', ...extra });
/** Each test starts the toy a dozen times or more. */
const SLOW = { timeout: 600_000 };
const CHECKS = ['describe', 'sample', 'split', 'split-again', 'to-neutral', 'render', 'hook'];

/** An executable that leaves a file behind when it runs: proof that ctx ran it, or did not. */
function marker(dir: string, name: string): string {
  const ran = join(dir, `${name}.ran`);
  writeFileSync(join(dir, name), `#!/bin/sh\ntouch '${ran}'\necho '{}'\n`);
  chmodSync(join(dir, name), 0o755);
  return ran;
}

describe('ctx runtime check', SLOW, () => {
  it('passes the toy runtime: every check ok, exit 0', () => {
    const r = ctx(newStore(), ['runtime', 'check', 'toy'], { env: env() });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(CHECKS.map((c) => `ok ${c}\n`).join(''));
    const j = ctx(newStore(), ['runtime', 'check', 'toy', '--json'], { env: env() });
    expect(JSON.parse(j.stdout)).toEqual({ v: 1, runtime: 'toy', path: TOY, ok: true, checks: CHECKS.map((name) => ({ name, result: 'ok' })) });
  });

  it('fails a runtime whose turns leave a byte out, naming the check and the reason; exit 1', () => {
    const r = ctx(newStore(), ['runtime', 'check', 'broken'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'ok describe\nok sample\n' +
        'FAIL split: turn 1 starts at 449, not at 448 (the turns must cover the bytes in order, with no gap or overlap)\n' +
        'skip split-again: needs split\nok to-neutral\nok render\nok hook\n',
    );
    expect(r.stderr).toBe('ctx: ctx-runtime-broken: 1 of 7 checks failed (split)\n');
    const j = JSON.parse(ctx(newStore(), ['runtime', 'check', 'broken', '--json'], { env: env() }).stdout);
    expect(j.ok).toBe(false);
    expect(j.checks[2]).toEqual({ name: 'split', result: 'fail', reason: 'turn 1 starts at 449, not at 448 (the turns must cover the bytes in order, with no gap or overlap)' });
  });

  it.each([
    ['no-title', 'FAIL describe: title is not a one-line string'],
    ['not-json', 'FAIL describe: the answer is not JSON: "hello from toy"'],
    ['bad-render', 'FAIL render: to-neutral of what it rendered is not the messages it was given (8 messages, not 9)'],
  ])('fails TOY_BREAK=%s with the reason', (mode, line) => {
    const r = ctx(newStore(), ['runtime', 'check', 'toy'], { env: env({ TOY_BREAK: mode }) });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toContain(line);
  });

  it('kills a runtime that hangs at the timeout, and one that writes past the cap, and says so', () => {
    const hung = ctx(newStore(), ['runtime', 'check', 'toy'], { env: env({ TOY_BREAK: 'hang', CTX_RUNTIME_TIMEOUT_MS: '500' }) });
    expect(hung.code).toBe(1);
    expect(hung.stdout.split('\n').slice(0, 2)).toEqual(['FAIL describe: no answer within 500 ms; killed', 'skip sample: needs describe']);
    const huge = ctx(newStore(), ['runtime', 'check', 'toy'], { env: env({ TOY_BREAK: 'huge', CTX_RUNTIME_MAX_OUTPUT: '100000' }) });
    expect(huge.code).toBe(1);
    expect(huge.stdout.split('\n')[0]).toBe('FAIL describe: wrote more than 100000 bytes; killed');
    // an import stops there too, with one line naming the executable
    const store = newStore();
    const imp = ctx(store, ['import', 'toy', SESSION_FILE], { env: env({ TOY_BREAK: 'hang', CTX_RUNTIME_TIMEOUT_MS: '500' }) });
    expect([imp.code, imp.stdout, imp.stderr]).toEqual([1, '', `ctx: ctx-runtime-toy (${TOY}): describe: no answer within 500 ms; killed\n`]);
  });

  it('lists the built-in runtimes, then those on PATH, running none; a built-in name is not used', () => {
    const dir = tempDir();
    const ran = marker(dir, 'ctx-runtime-codex');
    const r = ctx(newStore(), ['runtime', 'list'], { env: env({ PATH: `${RUNTIMES}${delimiter}${dir}${delimiter}${process.env.PATH}` }) });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
      'claude-code\tbuilt-in\timport,capture,hooks,export\n' +
        'codex\tbuilt-in\timport,capture,hooks,export\n' +
        'gemini-cli\tbuilt-in\timport,capture,hooks,export\n' +
        'pi\tbuilt-in\timport,capture,hooks,export\n' +
        'opencode\tbuilt-in\timport,capture,hooks,export\n' +
        'copilot\tbuilt-in\timport,capture,hooks,export\n' +
        `broken\t${join(RUNTIMES, 'ctx-runtime-broken')}\texternal\n` +
        `codex\t${join(dir, 'ctx-runtime-codex')}\tnot used: a built-in runtime has this name\n` +
        `toy\t${TOY}\texternal\n`,
    );
    // the built-in codex imports; the executable of its name never runs
    const imp = ctx(newStore(), ['import', 'codex', join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl')], { env: env({ PATH: `${dir}${delimiter}${process.env.PATH}` }) });
    expect(imp.code).toBe(0);
    expect(existsSync(ran)).toBe(false);
  });
});

describe('names', SLOW, () => {
  it('refuses a name with / or .. (exit 2) and runs nothing', () => {
    const dir = tempDir();
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // what a lookup of `ctx-runtime-../evil` in bin/ would reach once the path is normalized
    const ran = marker(dir, 'evil');
    const e = env({ PATH: `${bin}${delimiter}${process.env.PATH}` });
    for (const [name, args] of [['../evil', ['import', '../evil', SESSION_FILE]], ['../evil', ['runtime', 'check', '../evil']], ['a/b', ['export', 'a/b', 'main']], ['Toy', ['runtime', 'check', 'Toy']]] as const) {
      const r = ctx(newStore(), [...args], { env: e });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`ctx: '${name}' is no runtime name: an external runtime's name is lowercase letters, digits and '-', at most 40, starting with a letter\n`);
    }
    const hook = ctx(newStore(), ['hook', '../evil'], { input: '{}', env: e });
    expect([hook.code, hook.stdout]).toEqual([0, '']);
    expect(existsSync(ran)).toBe(false);
  });

  it('looks only in absolute PATH directories: a relative one would be the agent’s working directory', () => {
    const r = ctx(newStore(), ['import', 'toy', SESSION_FILE], { cwd: FIXTURES, env: env({ PATH: `runtimes${delimiter}${process.env.PATH}` }) });
    expect([r.code, r.stderr]).toEqual([2, "ctx: unknown runtime 'toy' (claude-code, codex, gemini-cli, pi, opencode, copilot; or an executable ctx-runtime-toy on PATH)\n"]);
  });
});

describe('a runtime from outside as a runtime', SLOW, () => {
  it('imports its file byte-exact, a commit per turn and one per compaction; again: nothing new', () => {
    const store = newStore();
    const e = env();
    const r = ctx(store, ['import', 'toy', SESSION_FILE, '--json'], { env: e });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const imported = JSON.parse(r.stdout);
    expect(imported).toEqual({ v: 1, branch: 'toy/7d1c9e2a-toy', session: '7d1c9e2a-toy', commits: 4, bytes: 1213, id: imported.id });
    expect(imported.id).toMatch(/^ctx-[0-9a-f]{40}$/);
    expect(ctx(store, ['materialize', 'toy/7d1c9e2a-toy', '--stop', 'root'], { env: e }).bytes.equals(readFileSync(SESSION_FILE))).toBe(true);
    const log = ctx(store, ['log', 'toy/7d1c9e2a-toy', '--json'], { env: e }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(log.map((c) => [c.type, c.format, c.summary, c.created_at])).toEqual([
      ['delta', 'toy-ext-v1', 'Which files did you change?', '2026-11-27T09:03:02.000Z'],
      // a compaction has no prompt: its summary is derived from the messages the toy's to-neutral gives
      ['compaction', 'toy-ext-v1', 'compacted: parseTodos skipped everything after a blank line; it now skips only blank lines.', '2026-11-27T09:02:00.000Z'],
      ['delta', 'toy-ext-v1', 'Fix it.', '2026-11-27T09:01:06.000Z'],
      ['delta', 'toy-ext-v1', 'Why does todo list print nothing?', '2026-11-27T09:00:06.000Z'],
    ]);
    // the same file imported again: the same commits, nothing written
    const again = ctx(store, ['import', 'toy', SESSION_FILE], { env: e });
    expect([again.code, again.stdout]).toEqual([0, `toy/7d1c9e2a-toy\t${imported.id.slice(0, 16)}\t0 commits\n`]);
    expect(fsck(store).code).toBe(0);
  });

  it('captures each new turn from its hook, byte-exact; another event captures nothing', () => {
    const store = newStore();
    const dir = tempDir();
    const file = join(dir, 'live.jsonl');
    const bytes = readFileSync(SESSION_FILE);
    const cuts = [bytes.indexOf('{"type":"user","text":"Fix it."'), bytes.indexOf('{"type":"user","text":"Which'), bytes.length];
    const hook = (event: string) => JSON.stringify({ hook_event_name: event, session_id: '7d1c9e2a-toy', transcript_path: 'live.jsonl', cwd: dir });
    writeFileSync(file, '');
    let at = 0;
    const e = env();
    for (const [i, cut] of cuts.entries()) {
      appendFileSync(file, bytes.subarray(at, cut));
      at = cut;
      const r = ctx(store, ['hook', 'toy'], { input: hook('Stop'), env: e });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
      expect(ctx(store, ['materialize', 'toy/7d1c9e2a-toy', '--stop', 'root'], { env: e }).bytes.equals(bytes.subarray(0, cut))).toBe(true);
      expect(ctx(store, ['log', 'toy/7d1c9e2a-toy'], { env: e }).stdout.trimEnd().split('\n')).toHaveLength([1, 3, 4][i]);
    }
    const other = ctx(store, ['hook', 'toy'], { input: hook('PreToolUse'), env: e });
    expect([other.code, other.stdout, other.stderr]).toEqual([0, '', '']);
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
    // the hook of a runtime that hangs still exits 0, and says why
    const hung = ctx(store, ['hook', 'toy'], { input: hook('Stop'), env: env({ TOY_BREAK: 'hang', CTX_RUNTIME_TIMEOUT_MS: '500' }) });
    expect([hung.code, hung.stdout]).toEqual([0, '']);
    expect(hung.stderr).toContain(`ctx-runtime-toy (${TOY}): describe: no answer within 500 ms; killed`);
  });

  it('exports a Claude Code chain through the neutral model as a toy session where the toy looks', () => {
    const store = newStore();
    const e = env();
    expect(ctx(store, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl'), '-b', 'cc'], { env: e }).code).toBe(0);
    const id = '11111111-2222-4333-8444-555555555555';
    const r = ctx(store, ['export', 'toy', 'cc', '--session-id', id, '--json'], { env: e, cwd: e.HOME });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const path = join(e.HOME, '.toy', 'sessions', `${id}.jsonl`);
    expect(JSON.parse(r.stdout)).toMatchObject({ v: 1, session_id: id, path, command: `toy --resume ${id}` });
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ type: 'session', id, cwd: e.HOME });
    expect(lines.slice(1).map((l) => [l.type, l.text.split('\n')[0]])).toEqual([
      ['user', 'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.'],
      ['assistant', 'Done: `parseTodos` now skips blank lines instead of stopping at the first one.'],
      ['user', 'Thanks. Which files did you change?'],
      ['assistant', 'Only src/list.ts: one line in `parseTodos`.'],
    ]);
    // an existing session is never overwritten
    const again = ctx(store, ['export', 'toy', 'cc', '--session-id', id], { env: e, cwd: e.HOME });
    expect([again.code, again.stderr.split('\n')[0]]).toEqual([1, `ctx: ${path} already exists`]);
  });

  it('exports its own chain through its to-neutral and render: the tool calls and results paired', () => {
    const store = newStore();
    const e = env();
    ctx(store, ['import', 'toy', SESSION_FILE], { env: e });
    const r = ctx(store, ['export', 'toy', 'toy/7d1c9e2a-toy', '--stop', 'root', '--session-id', '22222222-2222-4333-8444-555555555555', '--dir', e.HOME], { env: e, cwd: e.HOME });
    expect(r.code).toBe(0);
    const out = readFileSync(join(e.HOME, '22222222-2222-4333-8444-555555555555.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(out.map((l) => l.type)).toEqual(['session', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'user', 'user', 'assistant']);
    expect(out[2].calls).toEqual([{ id: 't1', name: 'read', input: { path: 'src/list.ts' } }]);
    expect(out[3]).toEqual({ type: 'tool', call: 't1', output: 'for (const l of lines) { if (!l) break; }' });
  });
});
