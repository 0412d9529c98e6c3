// `ctx hook`'s stdin: read to its end with fs.read (no stream), at most 64 MiB ($CTX_HOOK_MAX_INPUT):
// past that the hook reads no more, writes nothing, logs the refusal and exits 0.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctx, newStore, objectCount, refSnapshot, tempDir } from './helpers.js';

const ENV = { CTX_PRINCIPAL: 'hook', CTX_MACHINE: 'ci', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const LINE = `${JSON.stringify({ type: 'user', uuid: 'u1', sessionId: 's', message: { role: 'user', content: 'hello' } })}\n`;
const hookLog = (store: string) => (existsSync(join(store, 'ctx', 'hook.log')) ? readFileSync(join(store, 'ctx', 'hook.log'), 'utf8') : '');

/** A store with one captured line of session `s`, its transcript, and the hook input naming it padded with spaces to `size` bytes. */
function setup() {
  const store = newStore();
  const dir = tempDir();
  const transcript = join(dir, 's.jsonl');
  writeFileSync(transcript, LINE);
  const input = (size: number) => {
    const json = JSON.stringify({ session_id: 's', transcript_path: transcript, hook_event_name: 'Stop', cwd: dir });
    return json + ' '.repeat(size - json.length);
  };
  expect(ctx(store, ['hook', 'claude-code'], { input: input(200), env: ENV })).toMatchObject({ code: 0, stdout: '', stderr: '' });
  appendFileSync(transcript, LINE.replace('u1', 'u2'));
  return { store, dir, input, before: refSnapshot(store), objects: objectCount(store) };
}

describe('ctx hook: the size of its input', () => {
  it('takes input up to $CTX_HOOK_MAX_INPUT bytes and refuses one byte more: exit 0, nothing written, the refusal in hook.log', () => {
    const { store, input, before, objects } = setup();
    const over = ctx(store, ['hook', 'claude-code'], { input: input(1001), env: { ...ENV, CTX_HOOK_MAX_INPUT: '1000' } });
    expect([over.code, over.stdout, over.stderr]).toEqual([0, '', '']);
    expect(hookLog(store)).toMatch(/^\S+Z\t-\t-\thook input is larger than 1000 bytes \(CTX_HOOK_MAX_INPUT\): not read\n$/);
    expect([refSnapshot(store), objectCount(store)]).toEqual([before, objects]);
    // exactly at the limit: captured
    const at = ctx(store, ['hook', 'claude-code'], { input: input(1000), env: { ...ENV, CTX_HOOK_MAX_INPUT: '1000' } });
    expect([at.code, at.stdout, at.stderr]).toEqual([0, '', '']);
    expect(ctx(store, ['materialize', 'claude/s', '--stop', 'root'], { env: ENV }).stdout).toBe(LINE + LINE.replace('u1', 'u2'));
  });

  it('refuses more than 64 MiB by default', () => {
    const { store, input, before, objects } = setup();
    const r = ctx(store, ['hook', 'claude-code'], { input: input(64 * 1024 * 1024 + 1), env: ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(hookLog(store)).toMatch(/\thook input is larger than 67108864 bytes \(CTX_HOOK_MAX_INPUT\): not read\n$/);
    expect([refSnapshot(store), objectCount(store)]).toEqual([before, objects]);
  });

  it('without a store to log in, the refusal goes to stderr', () => {
    const dir = tempDir();
    const r = ctx(join(dir, 'none', '.ctx'), ['hook', 'claude-code'], { input: ' '.repeat(11), env: { ...ENV, CTX_HOOK_MAX_INPUT: '10' }, cwd: dir });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', expect.stringMatching(/^ctx hook: \S+Z\t-\t-\thook input is larger than 10 bytes \(CTX_HOOK_MAX_INPUT\): not read\n$/)]);
    expect(existsSync(join(dir, 'none'))).toBe(false);
  });
});
