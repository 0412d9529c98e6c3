// The trailers and link records of core/links.ts: what a commit message claims and what a note
// holds, both written by someone else, read only when well formed.
import { describe, expect, it } from 'vitest';
import { assistedBy, assistedValue, cherryPickedFrom, contextClaims, linkFields, linkOfRecord } from '../src/core/links.js';
import { foldAnnotations } from '../src/api/read/read.js';
import { linkIndex, linksOf, recordLink } from '../src/api/links/records.js';
import { RepoContext } from '../src/api/repo/repo-context.js';
import { FIXED_ENV, ctx, git, newStore, type Run } from './helpers.js';

const ok = (r: Run) => (expect(r.stderr).toBe(''), r);

const A = 'a'.repeat(40);
const B = '0123456789abcdef0123456789abcdef01234567';

describe('contextClaims', () => {
  it('reads every Ctx-Context line, in the trailer block or the body, once each, in order', () => {
    const squash = `Add login (#12)\n\n* first\n\nCtx-Context: ctx-${B}\n\n* second\n\nctx-context:  CTX-${A.toUpperCase()}\nCtx-Context: ctx-${B}\n`;
    expect(contextClaims(squash)).toEqual([B, A]);
  });
  it('takes no id that is not 40 hex, and no line with more on it', () => {
    expect(contextClaims(`x\n\nCtx-Context: ctx-${A.slice(1)}\nCtx-Context: ctx-${A} and more\nNot-Ctx-Context: ctx-${A}\n`)).toEqual([]);
  });
});

it('cherry-pick lines, Assisted-by values and the Assisted-by trailer value', () => {
  expect(cherryPickedFrom(`fix\n\n(cherry picked from commit ${B})\n`)).toEqual([B]);
  expect(assistedBy('x\n\nAssisted-by: claude-code:claude-sonnet-4-5\nassisted-by: codex:gpt-5\n')).toEqual(['claude-code:claude-sonnet-4-5', 'codex:gpt-5']);
  expect(assistedValue('gemini-cli', undefined)).toBe('gemini-cli:unknown');
  expect(assistedValue('codex', 'gpt 5 mini')).toBe('codex:gpt-5-mini');
});

describe('link records', () => {
  it('round-trip through the note fields, and fold into no annotation', () => {
    const fields = linkFields({ code: B, how: 'rewritten', from: A, files: ['src/a.ts'], repo: 'app' });
    expect(fields).toEqual({ link: { code: B, how: 'rewritten', from: A, files: ['src/a.ts'], repo: 'app' } });
    expect(linkOfRecord({ v: 1, at: '2026-01-02T03:04:05.678Z', by: 'alice', ...fields })).toEqual({ code: B, how: 'rewritten', from: A, files: ['src/a.ts'], repo: 'app', at: '2026-01-02T03:04:05.678Z', by: 'alice' });
    const note = `{"v":1,"at":"2026-01-02T03:04:05.678Z","summary":"s"}\n${JSON.stringify({ v: 1, at: '2026-01-03T00:00:00.000Z', ...fields })}\n`;
    expect(foldAnnotations(note)).toEqual({ at: '2026-01-02T03:04:05.678Z', summary: 's' });
  });
  it('a record that is not well formed is no link', () => {
    for (const link of [{ code: 'nothex', how: 'recorded' }, { code: B, how: 'guessed' }, { code: B, how: 'recorded', from: 'x' }, { code: B, how: 'recorded', files: ['a', 3] }, { code: B, how: 'recorded', files: ['a\0b'] }, [B], 'x'])
      expect(linkOfRecord({ v: 1, link })).toBeNull();
    expect(linkOfRecord({ v: 1, summary: 's' })).toBeNull();
  });
});

describe('links in a store', () => {
  it('recordLink appends to the context commit\'s note; linkIndex maps code commits back, rebuilt when the notes move', async () => {
    const store = newStore();
    ok(ctx(store, ['checkpoint', '-b', 'agent', '--format', 'claude-code-v1', '-'], { env: FIXED_ENV, input: '{"type":"user","message":{"role":"user","content":"hi"}}\n' }));
    const tip = git(store, ['rev-parse', 'agent']).trim();
    const repo = new RepoContext(store, { env: FIXED_ENV });
    expect(await linkIndex(repo)).toEqual(new Map());
    const rec = await recordLink(repo, tip, { code: B, how: 'recorded', files: ['src/a.ts'] });
    expect(rec).toEqual({ code: B, how: 'recorded', files: ['src/a.ts'], at: '2026-01-02T03:04:05.678Z', by: FIXED_ENV.CTX_PRINCIPAL });
    // native git reads the record back
    expect(git(store, ['notes', '--ref=ctx', 'show', tip])).toBe(`{"at":"2026-01-02T03:04:05.678Z","by":"${FIXED_ENV.CTX_PRINCIPAL}","link":{"code":"${B}","files":["src/a.ts"],"how":"recorded"},"v":1}\n`);
    expect((await linkIndex(repo)).get(B)).toEqual([{ context: tip, link: rec }]);
    await recordLink(repo, tip, { code: A, how: 'rewritten', from: B });
    const index = await linkIndex(repo);
    expect([...index.keys()].sort()).toEqual([B, A].sort());
    expect(await linksOf(repo, tip)).toEqual([rec, { code: A, how: 'rewritten', from: B, at: '2026-01-02T03:04:05.678Z', by: FIXED_ENV.CTX_PRINCIPAL }]);
    expect(ok(ctx(store, ['verify'])).code).toBe(0);
  });
});
