// ctx why: from a code commit to the contexts that made it (recorded, verified, claimed, matched),
// with real code repositories, a real store and sessions imported from Claude Code transcripts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

  it('a rewritten record counts as recorded, and ctx why --limit reads no further back than it needs', async () => {
    const w = world();
    const turns: Turn[] = [1, 2, 3].map((i) => ({ prompt: `Step ${i}.`, writes: [{ path: `src/s${i}.ts`, content: `export const step${i} = ${i};\n` }] }));
    const tip = w.imp(SESSION_A, turns, 'alice/steps');
    const old = 'a'.repeat(40);
    const sha = commitFiles(w.code, { 'src/s3.ts': 'export const step3 = 3;\n' }, 'Step three (amended, no trailer)\n');
    await recordLink(w.repo(), tip, { code: sha, how: 'rewritten', from: old, files: ['src/s3.ts'] });
    const [rec] = ctx(w.store, ['why', '--json', '--limit', '1'], { env: FIXED_ENV, cwd: w.code }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(rec).toMatchObject({ context: `ctx-${tip}`, known: 'recorded', record: { how: 'rewritten', from: old, at: FIXED_ENV.CTX_NOW, by: 'alice' }, files: ['src/s3.ts'], since: null, total: null });
    expect(rec.entries).toEqual([{ commit: `ctx-${tip}`, entry: 1, kind: 'tool', text: join(w.code, 'src/s3.ts'), tool: 'Write', paths: ['src/s3.ts'], at: new Date(Date.UTC(2026, 0, 2, 9, 0, 8)).toISOString() }]);
    const human = ctx(w.store, ['why', '--limit', '1'], { env: FIXED_ENV, cwd: w.code }).stdout.split('\n');
    expect(human.slice(4, 7)).toEqual([`context ctx-${tip} recorded (rewritten)`, `  session   ${SESSION_A}`, '  branch    alice/steps']);
    expect(human).toContain('  since     further back than the entries read');
    expect(human).toContain('  … earlier entries (--limit 0 shows all)');
    // all of it: the session from its start
    const all = JSON.parse(ctx(w.store, ['why', '--json', '--limit', '0'], { env: FIXED_ENV, cwd: w.code }).stdout);
    expect([all.since, all.total, all.entries.map((e: { kind: string }) => e.kind)]).toEqual([null, 4, ['prompt', 'prompt', 'prompt', 'tool']]);
  });

  it('a bad revision is not found', async () => {
    const w = world();
    await expect(contextsOfCode(w.repo(), w.code, 'nope')).rejects.toThrow(`no commit 'nope' in the code repository ${w.code}`);
  });
});

describe('ctx why', () => {
  const TWO_TURNS: Turn[] = [
    { prompt: 'Add a colour.', writes: [{ path: 'src/colour.ts', content: OTHER }] },
    { prompt: 'Make refresh retry once.', thinking: 'Wrap fetchToken in retryOnce.', text: 'I will rewrite src/auth.ts.', writes: [{ path: 'src/auth.ts', content: AUTH }] },
  ];

  it('prints each context with its slice since its previous linked code commit: exact JSON and terminal lines', async () => {
    const w = world();
    const tip = w.imp(SESSION_A, TWO_TURNS, 'alice/auth');
    const first = git(w.store, ['rev-parse', 'alice/auth~1']).trim();
    const colour = commitFiles(w.code, { 'src/colour.ts': OTHER }, `Add a colour\n\nCtx-Context: ctx-${first}\n`);
    await recordLink(w.repo(), first, { code: colour, how: 'recorded', files: ['src/colour.ts'] });
    const sha = commitFiles(w.code, { 'src/auth.ts': AUTH }, `Retry the token refresh once\n\nCtx-Context: ctx-${tip}\nAssisted-by: claude-code:claude-opus-4-5\n`);
    const r = ctx(w.store, ['why', '--json'], { env: FIXED_ENV, cwd: w.code });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const at = (n: number) => new Date(Date.UTC(2026, 0, 2, 9, 0, n)).toISOString();
    expect(JSON.parse(r.stdout)).toEqual({
      v: 1,
      code: sha,
      context: `ctx-${tip}`,
      known: 'verified',
      in_store: true,
      via: sha,
      record: null,
      session: SESSION_A,
      branch: 'alice/auth',
      runtime: 'claude-code',
      model: 'claude-opus-4-5',
      principal: 'alice',
      author: null,
      files: ['src/auth.ts'],
      lines: 3,
      since: `ctx-${first}`,
      total: 4,
      entries: [
        // numbered among the commit's own messages, as ctx grep and ctx files number them
        { commit: `ctx-${tip}`, entry: 0, kind: 'prompt', text: 'Make refresh retry once.', at: at(4) },
        { commit: `ctx-${tip}`, entry: 1, kind: 'reasoning', text: 'Wrap fetchToken in retryOnce.', at: at(5) },
        { commit: `ctx-${tip}`, entry: 1, kind: 'text', text: 'I will rewrite src/auth.ts.', at: at(5) },
        { commit: `ctx-${tip}`, entry: 1, kind: 'tool', text: join(w.code, 'src/auth.ts'), tool: 'Write', paths: ['src/auth.ts'], at: at(5) },
      ],
    });
    const human = ctx(w.store, ['why', sha], { env: FIXED_ENV, cwd: w.code });
    const t = `ctx-${tip.slice(0, 12)}`;
    expect(human.stdout.split('\n')).toEqual([
      `commit ${sha} Retry the token refresh once`,
      'Author: Alice <alice@example.com>  2026-01-03T10:00:00+00:00',
      '  A  src/auth.ts',
      '',
      `context ctx-${tip} verified (wrote 3 of its added lines)`,
      `  session   ${SESSION_A}`,
      '  branch    alice/auth',
      '  runtime   Claude Code',
      '  model     claude-opus-4-5',
      '  principal alice',
      '  files     src/auth.ts',
      `  since     ctx-${first} (its previous linked code commit)`,
      `  ${t}:0 user`,
      '      Make refresh retry once.',
      `  ${t}:1 reasoning`,
      '      Wrap fetchToken in retryOnce.',
      `  ${t}:1 assistant`,
      '      I will rewrite src/auth.ts.',
      `  ${t}:1 Write src/auth.ts ${join(w.code, 'src/auth.ts')}`,
      '',
    ]);
    // bounded: the last entry, and how to see the rest
    const one = ctx(w.store, ['why', '--limit', '1'], { env: FIXED_ENV, cwd: w.code }).stdout.split('\n');
    expect(one.slice(12)).toEqual(['  … 3 earlier entries (--limit 0 shows all)', `  ctx-${tip.slice(0, 12)}:1 Write src/auth.ts ${join(w.code, 'src/auth.ts')}`, '']);
    // ctx show and ctx log list the code commit the first context commit led to
    const shown = JSON.parse(ctx(w.store, ['show', first, '--json'], { env: FIXED_ENV }).stdout);
    expect(shown.links).toEqual([{ code: colour, how: 'recorded', files: ['src/colour.ts'], at: FIXED_ENV.CTX_NOW, by: 'alice' }]);
    expect(ctx(w.store, ['show', first], { env: FIXED_ENV }).stdout).toContain(`\ncode:          ${colour} recorded src/colour.ts\n`);
    expect(JSON.parse(ctx(w.store, ['log', 'alice/auth', '--json'], { env: FIXED_ENV }).stdout.split('\n')[1]).links).toEqual(shown.links);
  });

  it('never prints control bytes from a transcript', () => {
    const w = world();
    const tip = w.imp(SESSION_A, [{ prompt: 'Colour \x1b[31mred\x07 please', writes: [{ path: 'src/auth.ts', content: AUTH }] }], 'alice/auth');
    commitFiles(w.code, { 'src/auth.ts': AUTH }, `Retry\n\nCtx-Context: ctx-${tip}\n`);
    const out = ctx(w.store, ['why'], { env: FIXED_ENV, cwd: w.code }).stdout;
    expect(out).toContain('      Colour \ufffd[31mred\ufffd please\n');
    expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });

  it('matches a squash that dropped every trailer by the lines the session wrote', () => {
    const w = world();
    const tip = w.imp(SESSION_A, TWO_TURNS, 'alice/auth');
    const sha = commitFiles(w.code, { 'src/auth.ts': AUTH, 'src/colour.ts': OTHER }, 'Auth and colour (#7)\n');
    const [rec] = ctx(w.store, ['why', '--json'], { env: FIXED_ENV, cwd: w.code }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(rec).toMatchObject({ code: sha, context: `ctx-${tip}`, known: 'matched', in_store: true, files: ['src/auth.ts', 'src/colour.ts'], lines: 3, since: null, total: 6 });
  });

  it('a commit no context made: exit 0, nothing on stdout, a note on stderr; a bad revision: exit 4 and one line', () => {
    const w = world();
    w.imp(SESSION_A, TWO_TURNS, 'alice/auth');
    const sha = commitFiles(w.code, { 'notes.txt': 'written by hand, nothing a session wrote\n' }, 'By hand\n');
    expect(ctx(w.store, ['why', '--json'], { env: FIXED_ENV, cwd: w.code })).toMatchObject({ code: 0, stdout: '', stderr: `no context in the store made ${sha.slice(0, 12)}\n` });
    expect(ctx(w.store, ['why', 'nope'], { env: FIXED_ENV, cwd: w.code })).toMatchObject({ code: 4, stdout: '', stderr: `ctx: no commit 'nope' in the code repository ${w.code}\n` });
    expect(ctx(w.store, ['why', 'HEAD', '--repo', tempDir()], { env: FIXED_ENV })).toMatchObject({ code: 4, stdout: '' });
    expect(ctx(w.store, ['why', '--limit', 'x'], { env: FIXED_ENV, cwd: w.code })).toMatchObject({ code: 2, stderr: "ctx: --limit takes a whole number, not 'x'\n" });
  });

  it('--fork forks the linked context; --export writes a Claude Code session and prints its resume command', () => {
    const w = world();
    const tip = w.imp(SESSION_A, TWO_TURNS, 'alice/auth');
    const other = w.imp(SESSION_B, [{ prompt: 'Pick a colour.', writes: [{ path: 'src/colour.ts', content: OTHER }] }], 'bob/colour');
    commitFiles(w.code, { 'src/auth.ts': AUTH }, `Retry\n\nCtx-Context: ctx-${tip}\n`);
    expect(ctx(w.store, ['why', '--fork', 'review/why-retry'], { env: FIXED_ENV, cwd: w.code })).toMatchObject({ code: 0, stdout: 'review/why-retry\n' });
    expect(git(w.store, ['rev-parse', 'refs/heads/review/why-retry']).trim()).toBe(tip);
    const claude = join(tempDir(), 'claude');
    const e = ctx(w.store, ['why', '--export', 'claude-code'], { env: { ...FIXED_ENV, CLAUDE_CONFIG_DIR: claude }, cwd: w.code });
    expect(e.code).toBe(0);
    const id = /^claude --resume ([0-9a-f-]{36})\n$/.exec(e.stdout)![1];
    const file = join(claude, 'projects', w.code.replace(/[^A-Za-z0-9]/g, '-'), `${id}.jsonl`);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('Make refresh retry once.');
    // two contexts made the next commit: --fork needs --context
    commitFiles(w.code, { 'src/auth.ts': AUTH + '// again\n', 'src/colour.ts': OTHER }, `Both\n\nCtx-Context: ctx-${tip}\nCtx-Context: ctx-${other}\n`);
    const both = ctx(w.store, ['why', '--fork', 'x'], { env: FIXED_ENV, cwd: w.code });
    expect(both).toMatchObject({ code: 2, stderr: `ctx: 2 contexts made ${codeGit(w.code, ['rev-parse', 'HEAD']).slice(0, 12)}: choose one with --context (ctx-${tip.slice(0, 12)}, ctx-${other.slice(0, 12)})\n` });
    expect(ctx(w.store, ['why', '--fork', 'x', '--context', `ctx-${other.slice(0, 8)}`], { env: FIXED_ENV, cwd: w.code })).toMatchObject({ code: 0, stdout: 'x\n' });
    expect(git(w.store, ['rev-parse', 'refs/heads/x']).trim()).toBe(other);
  });
});
