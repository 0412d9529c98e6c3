// ctx blame and the content index: real code repositories, a real store, sessions imported from
// Claude Code transcripts whose Write and Edit calls wrote the code.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, ctx, git, newStore, tempDir } from './helpers.js';
import { claudeTranscript, commitFiles, newCodeRepo, type Turn } from './why-kit.js';
import { RepoContext } from '../src/api/repo/repo-context.js';
import { contentIndex, normalise } from '../src/api/links/content-index.js';

const SESSION_A = 'aaaaaaaa-1111-4222-8333-444455556666';
const SESSION_B = 'bbbbbbbb-1111-4222-8333-444455556666';

function world() {
  const store = newStore();
  const code = newCodeRepo(join(tempDir(), 'app'));
  const imp = (session: string, turns: Turn[], branch: string) => {
    const file = join(tempDir(), `${session}.jsonl`);
    writeFileSync(file, claudeTranscript(session, code, turns));
    const r = ctx(store, ['import', 'claude-code', file, '-b', branch], { env: FIXED_ENV });
    if (r.code !== 0) throw new Error(r.stderr);
    return git(store, ['rev-parse', `refs/heads/${branch}`]).trim();
  };
  const repo = () => new RepoContext(store, { env: { ...process.env, ...FIXED_ENV } });
  const blame = (args: string[]) => ctx(store, ['blame', ...args], { env: FIXED_ENV, cwd: code });
  return { store, code, imp, repo, blame };
}

const AUTH = 'export function refresh() {\n  return retryOnce(fetchToken);\n}\n';
const HAND = '// reviewed by hand: keep the retry small\n';
const COLOUR = 'export const colour = "blue";\n';

describe('the content index', () => {
  it('normalises: trimmed, and a line with fewer than 4 letters or digits, or a block word, is left out', () => {
    expect(normalise('    return retryOnce(fetchToken);  \t')).toBe('return retryOnce(fetchToken);');
    for (const l of ['', '   ', '}', '});', ']);', '*/', 'end', 'fi', 'i++', 'x = 1;', '} else {', 'return;', '  break;', 'END', 'done', 'pass'])
      expect([l, normalise(l)]).toEqual([l, null]);
    expect(normalise('} else if (ok) {')).toBe('} else if (ok) {');
    expect(normalise('const x = 1;')).toBe('const x = 1;');
  });

  it('maps each written line to the commit, entry, path, tool, branch and session; an edit repeats lines it did not write', async () => {
    const w = world();
    const a = w.imp(SESSION_A, [
      { prompt: 'Make refresh retry once.', writes: [{ path: 'src/auth.ts', content: AUTH }] },
      { prompt: 'Log the retry.', edits: [{ path: 'src/auth.ts', old: '  return retryOnce(fetchToken);', new: '  log("retry");\n  return retryOnce(fetchToken);' }] },
    ], 'alice/auth');
    const first = git(w.store, ['rev-parse', 'alice/auth~1']).trim();
    const index = await contentIndex(w.repo());
    const path = join(w.code, 'src/auth.ts');
    expect(index.lookup('  return retryOnce(fetchToken);')).toEqual([{ context: first, entry: 1, path, tool: 'Write', action: 'write', branch: 'alice/auth', session: SESSION_A }]);
    expect(index.lookup('log("retry");')).toEqual([{ context: a, entry: 1, path, tool: 'Edit', action: 'edit', branch: 'alice/auth', session: SESSION_A }]);
    expect(index.lookup('export function refresh() {')).toHaveLength(1);
    expect(index.lookup('}')).toEqual([]);
    expect(index.lookup('never written by anyone')).toEqual([]);
    expect([index.commits, index.lines]).toEqual([2, 3]);
  });

  it('is updated incrementally (commits read before are not read again) and rebuilt when unreadable', async () => {
    const w = world();
    w.imp(SESSION_A, [{ prompt: 'Make refresh retry once.', writes: [{ path: 'src/auth.ts', content: AUTH }] }], 'alice/auth');
    await contentIndex(w.repo());
    const file = join(w.store, 'ctx', 'content', 'index.json');
    const f = JSON.parse(readFileSync(file, 'utf8'));
    // a line only this file holds: kept while the commit it names is not read again
    f.lines['planted line, not in any session'] = [0, 7, 0, 0];
    f.tips = [];
    writeFileSync(file, JSON.stringify(f));
    const b = w.imp(SESSION_B, [{ prompt: 'Pick a colour.', writes: [{ path: 'src/colour.ts', content: COLOUR }] }], 'bob/colour');
    let index = await contentIndex(w.repo());
    expect(index.lookup('planted line, not in any session')).toMatchObject([{ entry: 7, session: SESSION_A }]);
    expect(index.lookup(COLOUR.trim())).toMatchObject([{ context: b, branch: 'bob/colour', session: SESSION_B }]);
    expect(index.commits).toBe(2);
    writeFileSync(file, '{"v":1,"commits":[');
    index = await contentIndex(w.repo());
    expect(index.lookup('planted line, not in any session')).toEqual([]);
    expect([index.commits, index.lines]).toEqual([2, 3]);
    expect(JSON.parse(readFileSync(file, 'utf8')).commits).toHaveLength(2);
  });
});

describe('ctx blame', () => {
  it("gives each line its code commit, the context entry that wrote it and its prompt, or human", () => {
    const w = world();
    const a = w.imp(SESSION_A, [{ prompt: 'Make refresh retry once.', writes: [{ path: 'src/auth.ts', content: AUTH }] }], 'alice/auth');
    const sha = commitFiles(w.code, { 'src/auth.ts': AUTH + HAND }, `Retry the token refresh once\n\nCtx-Context: ctx-${a}\n`);
    const r = w.blame(['src/auth.ts']);
    expect([r.stderr, r.code]).toEqual(['', 0]);
    const gist = '#1 Make refresh retry once.'.padEnd(36);
    const s = sha.slice(0, 8);
    expect(r.stdout).toBe(
      `${s} ctx-${a.slice(0, 12)}  ${gist} 1) export function refresh() {\n` +
        `${s} ctx-${a.slice(0, 12)}  ${gist} 2)   return retryOnce(fetchToken);\n` +
        `${s} ctx-${a.slice(0, 12)}  ${gist} 3) }\n` +
        `${s} human             ${''.padEnd(36)} 4) // reviewed by hand: keep the retry small\n`,
    );
    const json = w.blame(['src/auth.ts:2,4', '--json']);
    expect(json.code).toBe(0);
    const records = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(records[0]).toEqual({
      v: 1, path: 'src/auth.ts', line: 2, code: sha, original_line: 2, author: 'Alice', author_mail: '<alice@example.com>', author_time: '2026-01-03T10:00:00.000Z',
      context: `ctx-${a}`, how: 'linked', entry: 1, tool: 'Write', tool_path: join(w.code, 'src/auth.ts'), branch: 'alice/auth', session: SESSION_A,
      prompt: 'Make refresh retry once.', text: '  return retryOnce(fetchToken);',
    });
    expect(records.map((x) => [x.line, x.how, x.context])).toEqual([[2, 'linked', `ctx-${a}`], [3, 'linked', `ctx-${a}`], [4, 'human', null]]);
    expect(records[2]).toMatchObject({ entry: null, tool: null, tool_path: null, branch: null, session: null, prompt: null });
  });

  it('a context linked to the commit that did not write a line does not get it; with no link, a content match is marked', () => {
    const w = world();
    const a = w.imp(SESSION_A, [{ prompt: 'Make refresh retry once.', writes: [{ path: 'src/auth.ts', content: AUTH }] }], 'alice/auth');
    const b = w.imp(SESSION_B, [{ prompt: 'Pick a colour.', writes: [{ path: 'src/colour.ts', content: COLOUR }] }], 'bob/colour');
    // a forged trailer: b never wrote auth.ts
    commitFiles(w.code, { 'src/auth.ts': AUTH }, `Retry once\n\nCtx-Context: ctx-${b}\n`);
    const sha = commitFiles(w.code, { 'src/colour.ts': COLOUR }, 'Colour, trailers lost in a squash');
    const forged = JSON.parse(w.blame(['src/auth.ts:2', '--json']).stdout);
    expect([forged.how, forged.context]).toEqual(['human', null]);
    const r = w.blame(['src/colour.ts']);
    expect(r.stdout).toBe(`${sha.slice(0, 8)} ctx-${b.slice(0, 12)}* ${'#1 Pick a colour.'.padEnd(36)} 1) export const colour = "blue";\n`);
    expect(JSON.parse(w.blame(['src/colour.ts', '--json']).stdout)).toMatchObject({ how: 'matched', context: `ctx-${b}` });
    expect(a).not.toBe(b);
  });

  it('errors: an untracked file or a revision without it is not found (4), a bad range is a usage error (2)', () => {
    const w = world();
    commitFiles(w.code, { 'src/auth.ts': AUTH }, 'Auth');
    const cases: [string[], number, string][] = [
      [['nope.ts'], 4, 'ctx: blame: nope.ts is not tracked at HEAD\n'],
      [['src/auth.ts', '--rev', 'HEAD~1'], 4, 'ctx: blame: src/auth.ts is not tracked at HEAD~1\n'],
      [['src/auth.ts', '--rev', 'nope'], 4, `ctx: blame: not a commit in ${w.code}: 'nope'\n`],
      [['src/auth.ts:0'], 2, "ctx: blame: not a line range: '0' (lines count from 1, END at least LINE)\n"],
      [['src/auth.ts:3,2'], 2, "ctx: blame: not a line range: '3,2' (lines count from 1, END at least LINE)\n"],
      [['src/auth.ts:5,9'], 2, 'ctx: blame: file src/auth.ts has only 3 lines\n'],
    ];
    for (const [args, code, stderr] of cases) {
      const r = w.blame(args);
      expect([args, r.code, r.stderr, r.stdout]).toEqual([args, code, stderr, '']);
    }
    const elsewhere = join(tempDir(), 'x.ts');
    const outside = w.blame([elsewhere]);
    expect([outside.code, outside.stderr]).toEqual([4, `ctx: blame: ${elsewhere} is not in a git repository\n`]);
  });
});
