// ctx blame and the content index: real code repositories, a real store, sessions imported from
// Claude Code transcripts whose Write and Edit calls wrote the code.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, ROOT, ctx, git, newStore, tempDir } from './helpers.js';
import { claudeTranscript, codeGit, commitFiles, newCodeRepo, type Turn } from './why-kit.js';
import { RepoContext } from '../src/api/repo/repo-context.js';
import { contentIndex, normalise } from '../src/api/links/content-index.js';
import { oneLine } from '../src/output/style.js';
import { TRACE_NAMESPACE, uuid5 } from '../src/core/agent-trace.js';

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

  it('normalise: 16 ASCII letters or digits from the start keep a line whatever else it holds; fewer, or a non-ASCII character among them, are counted as letters', () => {
    expect(normalise('  a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p  ')).toBe('a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p');
    expect(normalise('é-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o')).toBe('é-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o');
    expect(normalise('{ é }')).toBe(null);
    expect(normalise('{ éüàç }')).toBe('{ éüàç }');
    expect(normalise('} ELSE {')).toBe(null);
    expect(normalise('\u00a0\u3000return;\u3000')).toBe(null);
  });

  it("oneLine (blame's gist): text already on one line as it is; white space other than one space between words, and control characters, made one line", () => {
    expect(oneLine('#3 Change 10 lines, round 7.', 36)).toBe('#3 Change 10 lines, round 7.');
    expect(oneLine('#3 Make the retry\n\tonce,  not twice ', 36)).toBe('#3 Make the retry once, not twice');
    expect(oneLine('#3 a\u00a0b\u2028c \x1b[31m', 36)).toBe('#3 a b c \ufffd[31m');
    expect(oneLine(' #3 x\x85y', 36)).toBe('#3 x\ufffdy');
    expect(oneLine('#12 Write /home/alice/projects/app/src/auth/refresh-token.ts', 36)).toBe('#12 Write /home/alice/projects/app/…');
    expect(oneLine('#12 Explain why the refresh token is retried once and not twice', 36)).toBe('#12 Explain why the refresh token…');
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
    expect(index.lookup('  return retryOnce(fetchToken);')).toEqual([{ context: first, entry: 1, path, tool: 'Write', action: 'write', branch: 'alice/auth', session: SESSION_A, prompt: 'Make refresh retry once.' }]);
    expect(index.lookup('log("retry");')).toEqual([{ context: a, entry: 1, path, tool: 'Edit', action: 'edit', branch: 'alice/auth', session: SESSION_A, prompt: 'Log the retry.' }]);
    expect([index.sessionOf(a), index.sessionOf('f'.repeat(40))]).toEqual([SESSION_A, undefined]);
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
    f.lines['planted line, not in any session'] = [0, 7, 0, 0, -1];
    f.tips = [];
    writeFileSync(file, JSON.stringify(f));
    const b = w.imp(SESSION_B, [{ prompt: 'Pick a colour.', writes: [{ path: 'src/colour.ts', content: COLOUR }] }], 'bob/colour');
    let index = await contentIndex(w.repo());
    expect(index.lookup('planted line, not in any session')).toMatchObject([{ entry: 7, session: SESSION_A, prompt: null }]);
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

  it('finds the repository as git does, without asking git in the plain case: a linked work tree blames alike; below a ceiling git sets, nothing is found', () => {
    const w = world();
    const a = w.imp(SESSION_A, [{ prompt: 'Make refresh retry once.', writes: [{ path: 'src/auth.ts', content: AUTH }] }], 'alice/auth');
    const sha = commitFiles(w.code, { 'src/auth.ts': AUTH }, `Retry the token refresh once\n\nCtx-Context: ctx-${a}\n`);
    const line = (n: number, text: string) => `${sha.slice(0, 8)} ctx-${a.slice(0, 12)}  ${'#1 Make refresh retry once.'.padEnd(36)} ${n}) ${text}\n`;
    const want = line(1, 'export function refresh() {') + line(2, '  return retryOnce(fetchToken);') + line(3, '}');
    const wt = join(tempDir(), 'wt');
    codeGit(w.code, ['worktree', 'add', '-q', wt]);
    const inWorktree = ctx(w.store, ['blame', 'src/auth.ts'], { env: FIXED_ENV, cwd: wt });
    expect([inWorktree.stdout, inWorktree.code, w.blame(['src/auth.ts']).stdout]).toEqual([want, 0, want]);
    // git stops below a ceiling: so does ctx
    const ceiling = ctx(w.store, ['blame', 'auth.ts'], { env: { ...FIXED_ENV, GIT_CEILING_DIRECTORIES: w.code }, cwd: join(w.code, 'src') });
    expect([ceiling.code, ceiling.stderr]).toEqual([4, 'ctx: blame: auth.ts is not in a git repository\n']);
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

// The Agent Trace record schema (cursor/agent-trace v0.1.0, schemas/trace-record.json; the spec is
// CC BY 4.0), written out here by hand so the test checks ctx's records against the spec itself.
const contributor = {
  type: 'object',
  properties: { type: { type: 'string', enum: ['human', 'ai', 'mixed', 'unknown'] }, model_id: { type: 'string', maxLength: 250 } },
  required: ['type'],
  additionalProperties: false,
};
const TRACE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://agent-trace.dev/schemas/v1/trace-record.json',
  title: 'Agent Trace Record',
  type: 'object',
  properties: {
    version: { type: 'string', pattern: '^[0-9]+\\.[0-9]+$' },
    id: { type: 'string', format: 'uuid', pattern: '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$' },
    timestamp: {
      type: 'string',
      format: 'date-time',
      pattern:
        '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d+)?)?(?:Z))$',
    },
    vcs: {
      type: 'object',
      properties: { type: { type: 'string', enum: ['git', 'jj', 'hg', 'svn'] }, revision: { type: 'string' } },
      required: ['type', 'revision'],
      additionalProperties: false,
    },
    tool: { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' } }, required: ['name', 'version'], additionalProperties: false },
    files: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          conversations: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                url: { type: 'string', format: 'uri' },
                contributor,
                ranges: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      start_line: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
                      end_line: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
                      content_hash: { type: 'string' },
                      contributor,
                    },
                    required: ['start_line', 'end_line'],
                    additionalProperties: false,
                  },
                },
                related: {
                  type: 'array',
                  items: { type: 'object', properties: { type: { type: 'string' }, url: { type: 'string', format: 'uri' } }, required: ['type', 'url'], additionalProperties: false },
                },
              },
              required: ['ranges'],
              additionalProperties: false,
            },
          },
        },
        required: ['path', 'conversations'],
        additionalProperties: false,
      },
    },
    metadata: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
  },
  required: ['version', 'id', 'timestamp', 'files'],
  additionalProperties: false,
};

/** ajv (a dependency ctx ships, for state schemas) with the three formats the schema names, checked by hand. */
async function traceValidator(): Promise<(record: unknown) => string[]> {
  const { default: Ajv2020 } = (await import('ajv/dist/2020.js')) as unknown as { default: new (o: object) => { addFormat(n: string, re: RegExp | ((s: string) => boolean)): void; compile(s: object): ((d: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] } } };
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date-time', (s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(s));
  ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:[^\s]*$/i);
  const validate = ajv.compile(TRACE_SCHEMA);
  return (record) => (validate(record) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
}

const sha256 = (lines: string[]) => `sha256:${createHash('sha256').update(lines.map((l) => `${l}\n`).join('')).digest('hex')}`;

describe('ctx trace', () => {
  it('prints a schema-valid Agent Trace record: ranges per conversation, a human line, a mixed range', async () => {
    const w = world();
    const a = w.imp(SESSION_A, [{ prompt: 'Make refresh retry once and log it.', writes: [{ path: 'src/auth.ts', content: 'export function refresh() {\n  log("refresh");\n  return retryOnce(fetchToken);\n}\n' }] }], 'alice/auth');
    const file = 'export function refresh() {\n  log("refresh, edited by hand");\n  return retryOnce(fetchToken);\n}\n' + HAND;
    const sha = commitFiles(w.code, { 'src/auth.ts': file, 'NOTES.md': 'Written by a person, nobody else.\n' }, `Retry once\n\nCtx-Context: ctx-${a}\nAssisted-by: claude-code:claude-opus-4-5\n`);
    const r = ctx(w.store, ['trace', 'HEAD'], { env: FIXED_ENV, cwd: w.code });
    expect([r.stderr, r.code]).toEqual(['', 0]);
    expect(r.stdout.endsWith('}\n') && r.stdout.split('\n').length).toBe(2);
    const record = JSON.parse(r.stdout);
    expect(await traceValidator().then((v) => v(record))).toEqual([]);
    const lines = file.split('\n');
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    expect(record).toEqual({
      version: '0.1',
      id: uuid5(TRACE_NAMESPACE, sha),
      timestamp: '2026-01-03T10:00:00Z',
      vcs: { type: 'git', revision: sha },
      tool: { name: 'ctx', version },
      files: [
        { path: 'NOTES.md', conversations: [{ contributor: { type: 'human' }, ranges: [{ start_line: 1, end_line: 1, content_hash: sha256(['Written by a person, nobody else.']) }] }] },
        {
          path: 'src/auth.ts',
          conversations: [
            {
              url: `ctx:ctx-${a}`,
              contributor: { type: 'ai', model_id: 'anthropic/claude-opus-4-5' },
              ranges: [{ start_line: 1, end_line: 4, content_hash: sha256(lines.slice(0, 4)), contributor: { type: 'mixed', model_id: 'anthropic/claude-opus-4-5' } }],
              related: [{ type: 'session', url: `ctx:session/${SESSION_A}` }],
            },
            { contributor: { type: 'human' }, ranges: [{ start_line: 5, end_line: 5, content_hash: sha256([HAND.trimEnd()]) }] },
          ],
        },
      ],
      metadata: { 'agent-ctx': { contexts: [{ id: `ctx-${a}`, known: 'verified' }] } },
    });
    // the id: a version-5 UUID of the sha, the same on every run
    expect(JSON.parse(ctx(w.store, ['trace', sha], { env: FIXED_ENV, cwd: w.code }).stdout).id).toBe(record.id);
    // the validator rejects what the schema rejects
    const bad = await traceValidator();
    expect(bad({ ...record, version: '0.1.0' })).toEqual(['/version must match pattern "^[0-9]+\\.[0-9]+$"']);
    expect(bad({ ...record, files: [{ path: 'x', conversations: [{ ranges: [{ start_line: 0, end_line: 1 }] }] }] })).toEqual(['/files/0/conversations/0/ranges/0/start_line must be >= 1']);
  });

  it('uuid5 matches RFC 4122; a bad revision exits 4', () => {
    expect(uuid5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    const w = world();
    const r = ctx(w.store, ['trace', 'nope'], { env: FIXED_ENV, cwd: w.code });
    expect([r.code, r.stdout, r.stderr.split('\n')[0]]).toEqual([4, '', `ctx: no commit 'nope' in the code repository ${w.code}`]);
  });
});
