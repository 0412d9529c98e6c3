// ctx why: from a code commit to the contexts that made it (recorded, verified, claimed, matched),
// with real code repositories, a real store and sessions imported from Claude Code transcripts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, ctx, git, newStore, tempDir } from './helpers.js';
import { claudeTranscript, codeGit, commitFiles, newCodeRepo, type Turn } from './why-kit.js';
import { RepoContext } from '../src/api/repo/repo-context.js';
import { contextsOfCode } from '../src/api/links/resolve-code.js';
import { recordLink } from '../src/api/links/records.js';

const SESSION_A = 'aaaaaaaa-1111-4222-8333-444455556666';
const SESSION_B = 'bbbbbbbb-1111-4222-8333-444455556666';

/** A store and a code repository beside it, with sessions imported from transcripts. */
function world() {
  const store = newStore();
  const code = newCodeRepo(join(tempDir(), 'app'));
  const imp = (session: string, turns: Turn[], branch: string) => {
    const file = join(tempDir(), `${session}.jsonl`);
    writeFileSync(file, claudeTranscript(session, code, turns));
    const r = ctx(store, ['import', 'claude-code', file, '-b', branch, '--json'], { env: FIXED_ENV });
    if (r.code !== 0) throw new Error(r.stderr);
    return git(store, ['rev-parse', `refs/heads/${branch}`]).trim();
  };
  const repo = () => new RepoContext(store, { env: { ...process.env, ...FIXED_ENV } });
  return { store, code, imp, repo };
}

const AUTH = 'export function refresh() {\n  return retryOnce(fetchToken);\n}\n';
const OTHER = 'export const colour = "blue";\n';

describe('contextsOfCode', () => {
  it('recorded, verified, claimed (forged and unknown), each once', async () => {
    const w = world();
    const a = w.imp(SESSION_A, [{ prompt: 'Make refresh retry once.', thinking: 'Wrap fetchToken.', text: 'Done.', writes: [{ path: 'src/auth.ts', content: AUTH }] }], 'alice/auth');
    const b = w.imp(SESSION_B, [{ prompt: 'Pick a colour.', writes: [{ path: 'src/colour.ts', content: OTHER }] }], 'bob/colour');
    const unknown = 'f'.repeat(40);
    const sha = commitFiles(w.code, { 'src/auth.ts': AUTH }, `Retry the token refresh once\n\nCtx-Context: ctx-${a}\nCtx-Context: ctx-${b}\nCtx-Context: ctx-${unknown}\n`);
    const repo = w.repo();
    let r = await contextsOfCode(repo, w.code, 'HEAD');
    expect(r.commit.sha).toBe(sha);
    expect(r.files).toEqual([{ status: 'A', path: 'src/auth.ts' }]);
    expect(r.added).toEqual([{ path: 'src/auth.ts', lines: [[1, 'export function refresh() {'], [2, '  return retryOnce(fetchToken);'], [3, '}']] }]);
    expect(r.contexts).toEqual([
      { context: a, known: 'verified', inStore: true, via: sha, files: ['src/auth.ts'], lines: 3 },
      { context: b, known: 'claimed', inStore: true, via: sha, files: [], lines: 0 },
      { context: unknown, known: 'claimed', inStore: false, via: sha, files: [], lines: 0 },
    ]);
    await recordLink(repo, a, { code: sha, how: 'recorded', files: ['src/auth.ts'] });
    r = await contextsOfCode(w.repo(), w.code, sha);
    expect(r.contexts[0]).toMatchObject({ context: a, known: 'recorded', record: { code: sha, how: 'recorded', files: ['src/auth.ts'], by: 'alice' } });
    expect(r.contexts.map((c) => c.known)).toEqual(['recorded', 'claimed', 'claimed']);
  });

  it('follows cherry-pick -x to the picked commit, and reads trailers in a squashed body', async () => {
    const w = world();
    const a = w.imp(SESSION_A, [{ prompt: 'Make refresh retry once.', writes: [{ path: 'src/auth.ts', content: AUTH }] }], 'alice/auth');
    codeGit(w.code, ['checkout', '-q', '-b', 'feature']);
    const picked = commitFiles(w.code, { 'src/auth.ts': AUTH }, `Retry once\n\nCtx-Context: ctx-${a}\n`);
    codeGit(w.code, ['checkout', '-q', 'main']);
    codeGit(w.code, ['cherry-pick', '-x', picked]);
    const r = await contextsOfCode(w.repo(), w.code, 'HEAD');
    expect(r.commit.message).toBe(`Retry once\n\nCtx-Context: ctx-${a}\n(cherry picked from commit ${picked})`);
    expect(r.contexts).toEqual([{ context: a, known: 'verified', inStore: true, via: r.commit.sha, files: ['src/auth.ts'], lines: 3 }]);
    // the source's record, with the trailer gone from the pick
    codeGit(w.code, ['commit', '-q', '--amend', '-m', `Retry once\n\n(cherry picked from commit ${picked})`]);
    await recordLink(w.repo(), a, { code: picked, how: 'recorded' });
    const p = await contextsOfCode(w.repo(), w.code, 'HEAD');
    expect(p.contexts).toMatchObject([{ context: a, known: 'recorded', via: picked }]);
    // a squash merge's message: the squashed commits' trailers in its body
    const squash = commitFiles(w.code, { 'src/auth.ts': AUTH + '// more\n' }, `Auth (#12)\n\n* Retry once\n\nCtx-Context: ctx-${a}\n\n* Comment\n`);
    expect((await contextsOfCode(w.repo(), w.code, squash)).contexts).toMatchObject([{ context: a, known: 'verified', files: ['src/auth.ts'] }]);
  });

  it('a bad revision is not found', async () => {
    const w = world();
    await expect(contextsOfCode(w.repo(), w.code, 'nope')).rejects.toThrow(`no commit 'nope' in the code repository ${w.code}`);
  });
});
