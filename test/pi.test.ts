// pi sessions without the pi CLI: the fixture in fixtures/pi/ and the real session in the corpus
// import byte-exact as a commit per prompt and a compaction commit per compaction entry; the
// neutral reading pairs tool calls with their results; `ctx hook pi` captures what its extension
// reports; other files and bad lines are refused; pi's tools name the files they touch.
import { copyFileSync, existsSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, FIXTURES, FIXED_ENV, corpusBytes, ctx, fsck, newStore, tempDir, itCorpus } from './helpers.js';

const ID = '019a0001-aaaa-7bbb-8ccc-000000000001';
const NAME = `2026-01-10T09-00-00-000Z_${ID}.jsonl`;
const FIXTURE = join(FIXTURES, 'pi', NAME);
const BRANCH = `pi/${ID}`;
const CORPUS_FILE = join(CORPUS, 'other', 'kvsankar__agent-history__real_sessions-pi-session-01.jsonl');

const lines = (s: string) => s.trimEnd().split('\n');
const chatOf = (store: string, args: string[]) => JSON.parse(ctx(store, ['materialize', ...args, '--format', 'openai-chat-v1'], { env: FIXED_ENV }).stdout);

describe('pi sessions', () => {
  it('imports a session as a commit per prompt and a compaction commit, byte-exact, with exact ids', () => {
    const store = newStore();
    const r = ctx(store, ['import', 'pi', FIXTURE], { env: FIXED_ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, `${BRANCH}\tctx-1dad5b7d5bf4\t4 commits\n`, '']);
    expect(lines(ctx(store, ['log', BRANCH], { env: FIXED_ENV }).stdout).map((l) => l.split('\t').filter((_, i) => i !== 2))).toEqual([
      ['ctx-1dad5b7d5bf4', 'delta', '2', '15', 'Thanks. Which files changed?'],
      ['ctx-504765ada7f4', 'compaction', '0', '28', 'compacted: The user asked for a --done flag on `todo list`; it was added in src/cli.py and tested in tests/test_list.py.'],
      ['ctx-53d122497fee', 'delta', '6', '30', 'Now write tests for it.'],
      ['ctx-2b77e60a7946', 'delta', '6', '50', 'Add a --done flag to `todo list`.'],
    ]);
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root', '--verify'], { env: FIXED_ENV }).bytes.equals(readFileSync(FIXTURE))).toBe(true);
    // again: nothing new
    const again = ctx(store, ['import', 'pi', FIXTURE], { env: FIXED_ENV });
    expect([again.code, again.stdout]).toEqual([0, `${BRANCH}\tctx-1dad5b7d5bf4\t0 commits\n`]);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });

  it('reads the session as pi sends it: tool calls paired with their results, a compaction as its summary and the entries it kept', () => {
    const store = newStore();
    ctx(store, ['import', 'pi', FIXTURE], { env: FIXED_ENV });
    const summary = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\nThe user asked for a --done flag on `todo list`; it was added in src/cli.py and tested in tests/test_list.py.\n</summary>';
    const call = (id: string, name: string, args: unknown) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] });
    expect(chatOf(store, [`${BRANCH}~3`])).toEqual([
      { role: 'user', content: 'Add a --done flag to `todo list`.' },
      call('toolu_01', 'read', { path: 'src/cli.py' }),
      { role: 'tool', tool_call_id: 'toolu_01', content: 'def list(args):\n    return items\n' },
      call('toolu_02', 'edit', { path: 'src/cli.py', edits: [{ oldText: '    return items\n', newText: '    if args.done:\n        return [i for i in items if i.done]\n    return items\n' }] }),
      { role: 'tool', tool_call_id: 'toolu_02', content: 'Successfully replaced 1 block(s) in src/cli.py.' },
      { role: 'assistant', content: 'Added `--done`: it lists only finished items.' },
    ]);
    // the whole file, as pi's resume reads it: the summary, the answer it kept, then what came after
    expect(chatOf(store, [BRANCH, '--stop', 'root'])).toEqual([
      { role: 'user', content: summary },
      { role: 'assistant', content: 'Tests added in tests/test_list.py; all pass.' },
      { role: 'user', content: 'Thanks. Which files changed?' },
      { role: 'assistant', content: 'src/cli.py and tests/test_list.py.' },
    ]);
    // natively from the compaction: the header and the kept entry come with it, as pi needs them
    const fixture = lines(readFileSync(FIXTURE, 'utf8'));
    expect(lines(ctx(store, ['materialize', BRANCH], { env: FIXED_ENV }).stdout)).toEqual([fixture[0], fixture[14], ...fixture.slice(15)]);
  });

  it('round-trips another runtime through the neutral model: a Codex chain as a pi session reads back the same', () => {
    const store = newStore();
    const rollout = join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl');
    expect(ctx(store, ['import', 'codex', rollout], { env: FIXED_ENV }).code).toBe(0);
    const codex = 'codex/0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d';
    const asPi = ctx(store, ['materialize', codex, '--stop', 'root', '--format', 'pi-session-v3'], { env: FIXED_ENV });
    expect(asPi.code).toBe(0);
    const entries = lines(asPi.stdout).map((l) => JSON.parse(l));
    // a tree: each entry the child of the one before
    entries.forEach((e, i) => expect(e.parentId).toBe(i === 0 ? null : entries[i - 1].id));
    // Codex's own base instructions stay behind (a runtime's preamble is not carried to another: docs/format.md §8.3)
    expect(entries.map((e) => e.message.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'user', 'assistant', 'toolResult', 'assistant', 'user', 'assistant']);
    const dir = tempDir();
    const file = join(dir, `2026-01-02T03-04-05-678Z_${'6'.repeat(8)}-6666-4666-8666-${'6'.repeat(12)}.jsonl`);
    writeFileSync(file, `${JSON.stringify({ type: 'session', version: 3, id: 'copy', timestamp: '2026-01-02T03:04:05.678Z', cwd: dir })}\n${asPi.stdout}`);
    expect(ctx(store, ['import', 'pi', file], { env: FIXED_ENV }).code).toBe(0);
    // all of it but Codex's own environment context, which a pi session does not carry
    const isCodexPreamble = (m: { content?: unknown }) => typeof m.content === 'string' && m.content.startsWith('<environment_context>');
    expect(chatOf(store, ['pi/copy', '--stop', 'root'])).toEqual(chatOf(store, [codex, '--stop', 'root']).filter((m: { content?: unknown }) => !isCodexPreamble(m)));
  });

  it('refuses a file pi did not write, an empty one and a broken line, writing nothing', () => {
    const store = newStore();
    const claude = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');
    const other = ctx(store, ['import', 'pi', claude], { env: FIXED_ENV });
    expect([other.code, other.stdout, other.stderr]).toEqual([2, '', expect.stringMatching(/^ctx: .*compacted-session\.jsonl is not a pi session/)]);
    const dir = tempDir();
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    expect(ctx(store, ['import', 'pi', empty], { env: FIXED_ENV }).code).not.toBe(0);
    const broken = join(dir, NAME);
    const fixture = lines(readFileSync(FIXTURE, 'utf8'));
    writeFileSync(broken, [...fixture.slice(0, 5), '{"type":"message","id":', ...fixture.slice(5)].join('\n') + '\n');
    const bad = ctx(store, ['import', 'pi', broken], { env: FIXED_ENV });
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([1, '', 'ctx: line 6 is not JSON (byte 1240)\n']);
    expect(ctx(store, ['branch'], { env: FIXED_ENV }).stdout).toBe('');
  });

  it('captures what ctx hook pi is told of, byte-exact, and always exits 0', () => {
    const dir = tempDir();
    const store = join(dir, '.ctx');
    const file = join(dir, NAME);
    const fixture = lines(readFileSync(FIXTURE, 'utf8'));
    writeFileSync(file, fixture.slice(0, 8).join('\n') + '\n');
    const hook = (input: unknown) => ctx(store, ['hook', 'pi'], { env: FIXED_ENV, cwd: dir, input: JSON.stringify(input) });
    const event = (name: string) => ({ event: name, session_file: file, session_id: ID, cwd: dir });
    expect(hook(event('turn_end'))).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root'], { env: FIXED_ENV }).bytes.equals(readFileSync(file))).toBe(true);
    appendFileSync(file, fixture.slice(8).join('\n') + '\n');
    // the first prompt's last answer goes with the next prompt (as the header goes with the first)
    expect(hook(event('agent_end')).code).toBe(0);
    expect(ctx(store, ['materialize', BRANCH, '--stop', 'root'], { env: FIXED_ENV }).bytes.equals(readFileSync(FIXTURE))).toBe(true);
    expect(lines(ctx(store, ['log', BRANCH], { env: FIXED_ENV }).stdout).map((l) => l.split('\t')[1])).toEqual(['delta', 'compaction', 'delta', 'delta']);
    // an event ctx does not capture, and input that is not the extension's: exit 0, the second logged
    expect(hook({ ...event('model_select') })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // (before a store is known, the line goes to stderr)
    const bad = hook({ event: 'agent_end', session_id: ID });
    expect([bad.code, bad.stdout]).toEqual([0, '']);
    expect(bad.stderr).toMatch(/^ctx hook: .*\thook input has no session_file\n$/);
    expect(existsSync(join(store, 'ctx', 'hook.log'))).toBe(false);
  });

  it('knows the files pi\'s read, edit, write and bash touched', () => {
    const store = newStore();
    ctx(store, ['import', 'pi', FIXTURE], { env: FIXED_ENV });
    const files = (path: string) => lines(ctx(store, ['files', path], { env: FIXED_ENV }).stdout).map((l) => l.split('\t').slice(1, 3));
    expect(files('src/cli.py')).toEqual([['edit', 'edit'], ['read', 'read']]);
    expect(files('tests/test_list.py')).toEqual([['run', 'bash'], ['write', 'write']]);
  });

  itCorpus('imports the real pi session in the corpus byte-exact', () => {
    const store = newStore();
    const dir = tempDir();
    const file = join(dir, 'pi-session-01.jsonl');
    copyFileSync(CORPUS_FILE, file);
    const r = ctx(store, ['import', 'pi', file], { env: FIXED_ENV });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^pi\/019e963d-6bd6-7ade-8a49-256ac3391bdd\tctx-[0-9a-f]{12}\t1 commits\n$/);
    expect(ctx(store, ['materialize', 'pi/019e963d-6bd6-7ade-8a49-256ac3391bdd', '--stop', 'root', '--verify'], { env: FIXED_ENV }).bytes.equals(corpusBytes('other', 'kvsankar__agent-history__real_sessions-pi-session-01.jsonl'))).toBe(true);
    expect(chatOf(store, ['pi/019e963d-6bd6-7ade-8a49-256ac3391bdd'])).toEqual([
      { role: 'user', content: '[REDACTED_PROMPT]' },
      { role: 'assistant', content: '[REDACTED_ASSISTANT_TEXT]' },
    ]);
  });
});
