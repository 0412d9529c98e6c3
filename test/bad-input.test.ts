// Bad input gets one `ctx: ` line on stderr, the documented exit code, nothing on stdout, and leaves the repo as it was.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from 'cbor-x';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, FIXED_ENV, FIXTURES, ctx, ctxAsync, fsck, git, newStore, objectCount, refSnapshot, type Run } from './helpers.js';

const LINE = '{"type":"user"}\n';
// Under FIXED_ENV, `LINE` as a root commit with no summary.
const ROOT_ID = 'ctx-73d069b06f37';
// Found once by checkpointing LINE with --summary s0…s700 as roots under FIXED_ENV: both start b372.
const TWINS = { s125: 'ctx-b3720c8eace7', s159: 'ctx-b37224c446f8' };
const COMPACTED = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');

// helpers' tempDir() is removed after each test; these stores live for a whole describe block.
const kept: string[] = [];
afterAll(() => kept.forEach((d) => rmSync(d, { recursive: true, force: true })));
function keptStore(): { dir: string; store: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ctx-test-'));
  kept.push(dir);
  const store = join(dir, '.ctx');
  const r = ctx(store, ['init', store]);
  if (r.code !== 0) throw new Error(r.stderr);
  return { dir, store };
}

/** Runs a command and checks that refs, objects and fsck are as before. */
async function unchanged(store: string, run: () => Promise<Run>): Promise<Run> {
  const refs = refSnapshot(store);
  const objects = objectCount(store);
  const r = await run();
  expect(refSnapshot(store)).toBe(refs);
  expect(objectCount(store)).toBe(objects);
  expect(fsck(store).code).toBe(0);
  return r;
}

async function expectError(run: Run | Promise<Run>, code: number, line: string) {
  const r = await run;
  expect({ stderr: r.stderr, code: r.code, stdout: r.stdout }).toEqual({ stderr: `${line}\n`, code, stdout: '' });
}

/** Native git with a fixed identity and date, for hand-made commits. */
function gitIn(store: string, args: string[], input?: string): string {
  const at = '1767323045 +0000';
  return execFileSync('git', ['--git-dir', store, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'alice', GIT_AUTHOR_EMAIL: 'alice@box', GIT_AUTHOR_DATE: at, GIT_COMMITTER_NAME: 'alice', GIT_COMMITTER_EMAIL: 'alice@box', GIT_COMMITTER_DATE: at },
  }).trim();
}

describe.concurrent.each(ENGINES)('bad input, engine %s', (engine) => {
  const env = { ...FIXED_ENV, CTX_ENGINE: engine };
  let store: string;
  let dir: string;
  const run = (args: string[], input?: string | Uint8Array) => unchanged(store, () => ctxAsync(store, args, { env, input }));
  const checkpoint = (extra: string[], input: string | Uint8Array) => run(['checkpoint', '-b', 'main', ...extra], input);

  beforeAll(() => {
    ({ store, dir } = keptStore());
    const root = ctx(store, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '-'], { env, input: LINE });
    expect(root.stdout).toBe(`${ROOT_ID}\n`);
    for (const [summary, id] of Object.entries(TWINS)) {
      const r = ctx(store, ['checkpoint', '-b', summary, '--format', 'claude-code-v1', '--summary', summary, '-'], { env, input: LINE });
      expect(r.stdout).toBe(`${id}\n`);
    }
  });

  it('broken JSONL names the line and byte', async () => {
    await expectError(checkpoint(['--format', 'claude-code-v1', '-'], '{"type":"user"}\nnot json\n'), 1, 'ctx: line 2 is not JSON (byte 16)');
  });

  it('an empty artifact', async () => {
    await expectError(checkpoint(['--format', 'claude-code-v1', '-'], ''), 1, 'ctx: empty artifact: no JSONL lines');
  });

  it('truncated CBOR', async () => {
    const full = encode([{ role: 'user', content: 'hi' }]);
    await expectError(checkpoint(['--format', 'bureau-agent-v1', '-'], full.subarray(0, full.length - 3)), 1, 'ctx: not CBOR: Unexpected end of CBOR data');
  });

  it('CBOR that is not an array', async () => {
    await expectError(checkpoint(['--format', 'bureau-agent-v1', '-'], encode({ role: 'user', content: 'hi' })), 1, 'ctx: CBOR artifact is not an array of messages');
    await expectError(checkpoint(['--format', 'bureau-agent-v1', '-'], encode('hi')), 1, 'ctx: CBOR artifact is not an array of messages');
  });

  it('an unknown format name', async () => {
    await expectError(checkpoint(['--format', 'nope-v9', '-'], LINE), 2, "ctx: unknown format 'nope-v9' (known: claude-code-v1, bureau-agent-v1, codex-rollout-v1, codex-rollout-v0, gemini-cli-jsonl-v1, gemini-cli-chat-v1, openai-chat-v1, pi-session-v3, opencode-session-v1, copilot-events-v1, openai-agents-v1)");
    await expectError(run(['materialize', 'main', '--format', 'nope-v9']), 2, "ctx: unknown format 'nope-v9' (known: claude-code-v1, bureau-agent-v1, codex-rollout-v1, codex-rollout-v0, gemini-cli-jsonl-v1, gemini-cli-chat-v1, openai-chat-v1, pi-session-v3, opencode-session-v1, copilot-events-v1, openai-agents-v1, markdown, raw)");
  });

  it('an unknown id', async () => {
    await expectError(run(['show', 'ctx-deadbeef']), 4, 'ctx: unknown commit: ctx-deadbeef');
    await expectError(run(['annotate', 'ctx-deadbeef', '--summary', 'x']), 4, 'ctx: unknown commit: ctx-deadbeef');
  });

  it('an unknown branch', async () => {
    await expectError(run(['show', 'nobranch']), 4, 'ctx: unknown commit or branch: nobranch');
    await expectError(run(['materialize', 'nobranch']), 4, 'ctx: unknown commit or branch: nobranch');
  });

  it('an ambiguous id lists both candidates', async () => {
    const line = `ctx: ambiguous id ctx-b372: ${TWINS.s125}, ${TWINS.s159}`;
    await expectError(run(['show', 'ctx-b372']), 1, line);
    await expectError(run(['materialize', 'b372']), 1, `ctx: ambiguous id b372: ${TWINS.s125}, ${TWINS.s159}`);
    // one more digit is unique
    const r = await run(['show', '--json', 'ctx-b3720']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id.slice(0, 16)).toBe(TWINS.s125);
  });

  it.each([
    ['../x', 'contains ".."'],
    ['a..b', 'contains ".."'],
    ['refs/heads/x', 'give the name without refs/'],
    ['-x', 'starts with "-"'],
    ['x.lock', 'a component ends with ".lock"'],
    ['a b', 'contains a space, control character or one of ~^:?*[\\'],
    ['x/', 'empty path component'],
  ])('the bad branch name %j', async (name, why) => {
    await expectError(run(['checkpoint', '-b', name, '--format', 'claude-code-v1', '-'], LINE), 2, `ctx: bad branch name '${name}': ${why}`);
  });

  it('a missing input file', async () => {
    const missing = join(dir, 'missing.jsonl');
    await expectError(checkpoint(['--format', 'claude-code-v1', missing], ''), 4, `ctx: no such file: ${missing}`);
    await expectError(run(['import', 'claude-code', missing, '-b', 'imp']), 4, `ctx: no such file: ${missing}`);
  });

  it('importing a 0-byte transcript', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    await expectError(run(['import', 'claude-code', empty, '-b', 'imp']), 1, `ctx: nothing to import: ${empty} is empty`);
  });

  it('importing onto an existing branch', async () => {
    await expectError(run(['import', 'claude-code', COMPACTED, '-b', 'main']), 1, 'ctx: branch main already exists');
  });
});

describe.each(ENGINES)('a damaged repo, engine %s', (engine) => {
  const env = { ...FIXED_ENV, CTX_ENGINE: engine };

  // Artifacts are whole lines and concatenate by byte append: an unterminated last line would glue onto the next delta.
  it('a JSONL artifact whose last line has no newline', async () => {
    const store = keptStore().store;
    const r = await unchanged(store, () => ctxAsync(store, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '-'], { env, input: '{"type":"user"}' }));
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'ctx: line 1 does not end with a newline: artifacts are whole lines\n' });
  });

  it('a JSONL line that is JSON but not an object', async () => {
    const store = keptStore().store;
    const r = await unchanged(store, () => ctxAsync(store, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '-'], { env, input: '{"type":"user"}\n[1]\n' }));
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'ctx: line 2 is not a JSON object (byte 16)\n' });
  });

  it('a tampered artifact fails verify and materialize --verify with exit 5', async () => {
    const store = newStore();
    const first = ctx(store, ['checkpoint', '-b', 'main', '--format', 'claude-code-v1', '-'], { env, input: '{"type":"user","n":1}\n' });
    expect(first.code).toBe(0);
    // Same length, other bytes: only the BLAKE3 can tell.
    const blob = gitIn(store, ['hash-object', '-w', '--stdin'], '{"type":"user","n":2}\n');
    const tree = gitIn(store, ['mktree'], `100644 blob ${blob}\tdelta.jsonl\n100644 blob ${gitIn(store, ['rev-parse', 'main:meta.json'])}\tmeta.json\n`);
    const message = git(store, ['cat-file', 'commit', 'main']).split('\n\n').slice(1).join('\n\n');
    const forged = gitIn(store, ['commit-tree', tree], message);
    gitIn(store, ['update-ref', 'refs/heads/main', forged]);
    expect(forged).toBe('b17ecc78047e913a857c7dae9efc9ea53ee52f9a');
    const line = `ctx: ctx-${forged.slice(0, 12)}: artifact does not match its BLAKE3 in meta.json`;

    await expectError(unchanged(store, () => ctxAsync(store, ['verify'], { env })), 5, line);
    await expectError(unchanged(store, () => ctxAsync(store, ['materialize', '--verify', 'main'], { env })), 5, line);
    await expectError(unchanged(store, () => ctxAsync(store, ['materialize', '--verify', '--stop', 'root', 'main'], { env })), 5, line);
  });

  describe('a foreign meta.json', () => {
    let store: string;
    let foreign: string;
    beforeAll(() => {
      ({ store } = keptStore());
      const meta = gitIn(store, ['hash-object', '-w', '--stdin'], '{"hello":1}');
      const delta = gitIn(store, ['hash-object', '-w', '--stdin'], '{"type":"user"}\n');
      const tree = gitIn(store, ['mktree'], `100644 blob ${delta}\tdelta.jsonl\n100644 blob ${meta}\tmeta.json\n`);
      foreign = gitIn(store, ['commit-tree', tree], 'foreign\n');
      gitIn(store, ['update-ref', 'refs/heads/foreign', foreign]);
    });

    it.each(['verify', 'materialize foreign', 'show foreign'])('ctx %s: exit 5, one line naming the commit', async (command) => {
      const r = await unchanged(store, () => ctxAsync(store, command.split(' '), { env }));
      await expectError(r, 5, `ctx: ctx-${foreign.slice(0, 12)}: unknown meta.json version undefined`);
    });
  });
});
