// `ctx annotate --pin / --unpin`: a `pinned` field in the commit's annotation records, the latest wins.
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, ctx, git, newStore } from './helpers.js';

const LINE = '{"type":"user","message":{"role":"user","content":"keep me"}}\n';

function store(): { s: string; id: string } {
  const s = newStore();
  const w = ctx(s, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '-'], { input: LINE, env: FIXED_ENV });
  expect(w.code).toBe(0);
  return { s, id: w.stdout.trim() };
}

const annotations = (s: string, id: string) => JSON.parse(ctx(s, ['--json', 'show', id]).stdout).annotations;

describe('ctx annotate --pin / --unpin', () => {
  it('pins, unpins and pins again; show --json carries the latest', () => {
    const { s, id } = store();
    const at = (t: string) => ({ ...FIXED_ENV, CTX_NOW: t });
    const pin = ctx(s, ['--json', 'annotate', id, '--pin'], { env: at('2026-01-02T03:05:00.000Z') });
    expect(pin.code).toBe(0);
    expect(JSON.parse(pin.stdout)).toEqual({ v: 1, at: '2026-01-02T03:05:00.000Z', by: 'alice', pinned: true, id: expect.stringMatching(/^ctx-[0-9a-f]{40}$/) });
    expect(annotations(s, id)).toEqual({ at: '2026-01-02T03:05:00.000Z', by: 'alice', pinned: true });

    expect(ctx(s, ['annotate', id, '--unpin', '--summary', 'not needed'], { env: at('2026-01-02T03:06:00.000Z') }).code).toBe(0);
    expect(annotations(s, id)).toEqual({ at: '2026-01-02T03:06:00.000Z', by: 'alice', pinned: false, summary: 'not needed' });

    expect(ctx(s, ['annotate', 'main', '--pin'], { env: at('2026-01-02T03:07:00.000Z') }).code).toBe(0);
    expect(annotations(s, id)).toMatchObject({ pinned: true, summary: 'not needed' });
    // three JSON lines in the note, readable with native git
    const note = git(s, ['notes', '--ref', 'ctx', 'show', id.slice(4)]).trim().split('\n');
    expect(note.map((l) => JSON.parse(l).pinned)).toEqual([true, false, true]);
  });

  it('--pin with --unpin is a usage error; no field at all names --pin', () => {
    const { s, id } = store();
    const both = ctx(s, ['annotate', id, '--pin', '--unpin']);
    expect([both.code, both.stderr]).toEqual([2, 'ctx: give --pin or --unpin, not both\n']);
    const none = ctx(s, ['annotate', id]);
    expect([none.code, none.stderr]).toEqual([2, 'ctx: nothing to annotate: give --summary, --label, --pin or --unpin\n']);
  });
});
