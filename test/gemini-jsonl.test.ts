// Gemini CLI JSONL sessions (gemini-cli-jsonl-v1) on the project's own fixtures: the update
// semantics in translation (replacement by id, $set with messages, $rewindTo), parts lists and
// functionCall/functionResponse parts; delta commits on import, and a later import appending only
// the new lines.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storageFormat } from '../src/formats/registry.js';
import { splitSession } from '../src/runtimes/gemini/split.js';
import { FIXTURES, corpusFiles, ctx, fsck, git, itCorpus, newStore, objectCount, refSnapshot, tempDir } from './helpers.js';

const LIVE = join(FIXTURES, 'gemini-cli', 'session-2026-01-10T09-00-aaaa1111.jsonl');
const RESUMED = join(FIXTURES, 'gemini-cli', 'session-2026-01-11T10-00-bbbb2222.jsonl');
const COMPRESSED = join(FIXTURES, 'gemini-cli', 'session-2026-01-12T08-00-cccc3333.jsonl');
const LIVE_ID = 'aaaa1111-2222-4333-8444-555566667777';
const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const fmt = storageFormat('gemini-cli-jsonl-v1');
const neutral = (file: string) => fmt.toNeutral!(fmt.parse(readFileSync(file), { lastOfFile: true }));

describe('gemini-cli-jsonl-v1 translation', () => {
  it('applies replacements by id and $rewindTo; tool results come once, from the response record when there is one', () => {
    expect(neutral(LIVE)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'List the files' }], timestamp: '2026-01-10T09:00:01.000Z', ids: { id: 'u1' } },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'Listing\nI will list the directory.' },
          { type: 'tool_call', id: 'ls-1', name: 'list_directory', input: { dir_path: '.' } },
        ],
        timestamp: '2026-01-10T09:00:02.000Z',
        ids: { id: 'g1' },
      },
      { role: 'tool', content: [{ type: 'tool_result', call_id: 'ls-1', content: 'a.txt\nb.txt' }], timestamp: '2026-01-10T09:00:02.000Z' },
      { role: 'assistant', content: [{ type: 'text', text: 'There are two files: a.txt and b.txt.' }], timestamp: '2026-01-10T09:00:03.000Z', ids: { id: 'g2' } },
      { role: 'user', content: [{ type: 'text', text: 'Show a.txt' }], timestamp: '2026-01-10T09:00:06.000Z', ids: { id: 'u3' } },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'rf-1', name: 'read_file', input: { file_path: 'a.txt' } }], timestamp: '2026-01-10T09:00:07.000Z', ids: { id: 'g4' } },
      { role: 'tool', content: [{ type: 'tool_result', call_id: 'rf-1', content: 'alpha' }], timestamp: '2026-01-10T09:00:08.000Z' },
      { role: 'assistant', content: [{ type: 'text', text: 'a.txt says alpha.' }], timestamp: '2026-01-10T09:00:09.000Z', ids: { id: 'g5' } },
    ]);
  });

  it('a $set of messages replaces the list: functionCall parts are calls, a repeated response comes once', () => {
    const got = neutral(RESUMED);
    expect(got.map((m) => [m.role, m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_call' ? `call ${b.id}` : b.type === 'tool_result' ? `result ${b.call_id}: ${b.content}` : b.type))])).toEqual([
      ['user', ['<session_context>\nThis is the Gemini CLI.\n</session_context>']],
      ['user', ['List the files']],
      ['assistant', ['thinking', 'call ls-1']],
      ['tool', ['result ls-1: a.txt\nb.txt']],
      ['assistant', ['There are two files: a.txt and b.txt.']],
      ['user', ['Thanks']],
      ['assistant', ['You are welcome.']],
    ]);
  });

  itCorpus("keeps every corpus chat's tool calls, each with its result, and every prompt", () => {
    const chat = storageFormat('gemini-cli-chat-v1');
    for (const file of corpusFiles('gemini-cli', '.json')) {
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      const blocks = chat.toNeutral!(chat.parse(readFileSync(file))).flatMap((m) => m.content.map((b) => [m.role, b] as const));
      const calls = doc.messages.flatMap((m: { toolCalls?: { id: string }[] }) => (m.toolCalls ?? []).map((c) => c.id));
      expect(calls.length).toBeGreaterThan(0);
      expect(blocks.flatMap(([, b]) => (b.type === 'tool_call' ? [b.id] : []))).toEqual(calls);
      expect(blocks.flatMap(([, b]) => (b.type === 'tool_result' ? [b.call_id] : []))).toEqual(calls);
      const prompts = doc.messages.filter((m: { type: string }) => m.type === 'user').map((m: { content: string }) => m.content);
      expect(blocks.flatMap(([role, b]) => (role === 'user' && b.type === 'text' ? [b.text] : []))).toEqual(prompts);
    }
  });

  it('reads user content given as parts in the older chat documents too', () => {
    const chat = storageFormat('gemini-cli-chat-v1');
    const doc = { sessionId: 's', messages: [{ id: 'u1', type: 'user', content: [{ text: 'Hello ' }, { text: 'there' }] }, { id: 'g1', type: 'gemini', content: [{ text: 'Hi.' }] }] };
    expect(chat.toNeutral!(chat.parse(Buffer.from(JSON.stringify(doc))))).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'there' }], ids: { id: 'u1' } },
      { role: 'assistant', content: [{ type: 'text', text: 'Hi.' }], ids: { id: 'g1' } },
    ]);
  });

  it('fromNeutral writes records that read back as the same conversation', () => {
    const messages = neutral(LIVE);
    const bytes = fmt.fromNeutral!(messages);
    expect(Buffer.from(bytes).toString('utf8').split('\n')[1]).toBe(
      '{"id":"g1","timestamp":"2026-01-10T09:00:02.000Z","type":"gemini","content":[{"functionCall":{"id":"ls-1","name":"list_directory","args":{"dir_path":"."}}}],"thoughts":[{"subject":"","description":"Listing\\nI will list the directory.","timestamp":"2026-01-10T09:00:02.000Z"}]}',
    );
    // thoughts come back without their subject line, which the neutral model joined into the text
    const back = fmt.toNeutral!(fmt.parse(bytes));
    expect(back).toEqual(messages);
  });
});

describe('ctx import gemini-cli of a JSONL session', () => {
  it('splits it into a delta commit per prompt; materialize --stop root gives the file back', () => {
    expect(splitSession(readFileSync(LIVE)).map((s) => [s.prompt, s.lines])).toEqual([
      ['List the files', 6],
      ['Delete b.txt', 3],
      ['Show a.txt', 5],
    ]);
    const store = newStore();
    const r = ctx(store, ['import', 'gemini-cli', LIVE], { env: ENV });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(`gemini/${LIVE_ID}\tctx-cd5ae5ab63d4\t3 commits\n`);
    const log = ctx(store, ['log', `gemini/${LIVE_ID}`, '--json'], { env: ENV }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(log.map((c) => [c.type, c.format, c.summary, c.message_count])).toEqual([
      ['delta', 'gemini-cli-jsonl-v1', 'Show a.txt', 4],
      ['delta', 'gemini-cli-jsonl-v1', 'Delete b.txt', 2],
      ['delta', 'gemini-cli-jsonl-v1', 'List the files', 4],
    ]);
    expect(ctx(store, ['materialize', `gemini/${LIVE_ID}`, '--stop', 'root', '--verify'], { env: ENV }).bytes.equals(readFileSync(LIVE))).toBe(true);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });

  it('imports a later save of the session as the new lines only; the same file again writes nothing', () => {
    const store = newStore();
    const bytes = readFileSync(LIVE);
    const cut = bytes.indexOf('{"id":"u3"');
    const file = join(tempDir(), 'session-2026-01-10T09-00-aaaa1111.jsonl');
    writeFileSync(file, bytes.subarray(0, cut));
    expect(ctx(store, ['import', 'gemini-cli', file], { env: ENV }).stdout).toMatch(/\t2 commits\n$/);
    appendFileSync(file, bytes.subarray(cut));
    const later = ctx(store, ['import', 'gemini-cli', file], { env: ENV });
    expect([later.code, later.stdout, later.stderr]).toEqual([0, `gemini/${LIVE_ID}\tctx-cd5ae5ab63d4\t1 commits\n`, '']);
    // the same commits as importing the whole file at once
    expect(git(store, ['rev-list', '--count', `gemini/${LIVE_ID}`]).trim()).toBe('3');
    const before = [refSnapshot(store), objectCount(store)];
    const again = ctx(store, ['import', 'gemini-cli', file], { env: ENV });
    expect([again.code, again.stdout, again.stderr]).toEqual([0, `gemini/${LIVE_ID}\tctx-cd5ae5ab63d4\t0 commits\n`, `gemini/${LIVE_ID} already holds this chat: nothing written\n`]);
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);
  });

  it('refuses a file that no longer extends the branch, writing nothing', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'gemini-cli', LIVE], { env: ENV }).code).toBe(0);
    const changed = join(tempDir(), 'session-2026-01-10T09-00-aaaa1111.jsonl');
    writeFileSync(changed, readFileSync(LIVE, 'utf8').replace('List the files', 'List the filez'));
    const before = [refSnapshot(store), objectCount(store)];
    const r = ctx(store, ['import', 'gemini-cli', changed], { env: ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `ctx: ${changed} is not an extension of gemini/${LIVE_ID}: its first 2237 bytes are not the chain's\n`]);
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);
  });

  it('refuses a line that is not JSON, writing nothing', () => {
    const store = newStore();
    const bad = join(tempDir(), 'session-x.jsonl');
    writeFileSync(bad, `${readFileSync(LIVE, 'utf8').split('\n')[0]}\n{"id":"u1",\n`);
    const r = ctx(store, ['import', 'gemini-cli', bad], { env: ENV });
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'ctx: line 2 is not JSON (byte 228)\n']);
    expect(refSnapshot(store)).toBe('');
  });

  it('tells a session from a chat document by its lines, whatever the file is called', () => {
    const store = newStore();
    const dir = tempDir();
    writeFileSync(join(dir, 'session-a.json'), readFileSync(LIVE));
    expect(ctx(store, ['import', 'gemini-cli', join(dir, 'session-a.json')], { env: ENV }).stdout).toMatch(/^gemini\/aaaa1111-2222-4333-8444-555566667777\tctx-[0-9a-f]{12}\t3 commits\n$/);
    writeFileSync(join(dir, 'session-b.json'), '{\n  "sessionId": "b",\n  "messages": [\n');
    const broken = ctx(store, ['import', 'gemini-cli', join(dir, 'session-b.json')], { env: ENV });
    expect([broken.code, broken.stdout, broken.stderr]).toEqual([2, '', `ctx: ${join(dir, 'session-b.json')} is not a Gemini CLI session (its first line is not JSON, nor is the whole file: Unexpected end of JSON input)\n`]);
  });

  it('translates a session to other formats with its tool calls', () => {
    const store = newStore();
    ctx(store, ['import', 'gemini-cli', RESUMED], { env: ENV });
    const chat = JSON.parse(ctx(store, ['materialize', 'gemini/bbbb2222-3333-4444-8555-666677778888', '--format', 'openai-chat-v1'], { env: ENV }).stdout);
    expect(chat.slice(1, 4)).toEqual([
      { role: 'user', content: 'List the files' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'ls-1', type: 'function', function: { name: 'list_directory', arguments: '{"dir_path":"."}' } }] },
      { role: 'tool', tool_call_id: 'ls-1', content: 'a.txt\nb.txt' },
    ]);
  });

  it("makes a compression (the $set of messages that starts with its summary) a compaction commit", () => {
    expect(splitSession(readFileSync(COMPRESSED)).map((s) => [s.kind, s.prompt, s.lines])).toEqual([
      ['delta', 'Weigh every item', 9],
      ['compaction', undefined, 1],
      ['delta', 'And now?', 4],
    ]);
    const store = newStore();
    const branch = 'gemini/cccc3333-4444-4555-8666-777788889999';
    expect(ctx(store, ['import', 'gemini-cli', COMPRESSED], { env: ENV }).stdout).toMatch(/\t3 commits\n$/);
    expect(git(store, ['log', '--format=%(trailers:key=Ctx-Type,valueonly)', branch]).split('\n').filter(Boolean)).toEqual(['delta', 'compaction', 'delta']);
    // from the compaction on: the summary and what followed; --stop root: the file
    const lines = readFileSync(COMPRESSED, 'utf8').split('\n');
    expect(ctx(store, ['materialize', branch], { env: ENV }).stdout).toBe(lines.slice(9).join('\n'));
    expect(ctx(store, ['materialize', branch, '--stop', 'root'], { env: ENV }).bytes.equals(readFileSync(COMPRESSED))).toBe(true);
    const md = ctx(store, ['materialize', branch, '--format', 'openai-chat-v1'], { env: ENV });
    expect(JSON.parse(md.stdout).map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', '<session_context>\nThis is the Gemini CLI.\n</session_context>'],
      ['user', '<state_snapshot>\nThe user weighed the items.\n</state_snapshot>'],
      ['assistant', 'Got it. Thanks for the additional context!'],
      ['user', 'And now?'],
      ['assistant', 'Nothing else to weigh.'],
    ]);
  });
});
