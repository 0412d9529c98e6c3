// Translation tiers (DESIGN.md §4): every corpus transcript through openai-chat-v1 and bureau-agent-v1
// keeps its tool calls, results and text; Codex rollouts of both shapes keep their function calls;
// markdown renders a fixed fixture exactly; an unknown stored format falls back to raw, exit 0.
import { encode } from 'cbor-x';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactHash } from '../src/core/blake3.js';
import { bureauAgent } from '../src/formats/bureau-agent.js';
import { claudeCode } from '../src/formats/claude-code.js';
import { codexRollout } from '../src/formats/codex-rollout.js';
import { codexRolloutV0 } from '../src/formats/codex-rollout-v0.js';
import type { StorageFormat } from '../src/formats/format.js';
import { resultText, type NeutralMessage } from '../src/core/neutral.js';
import { NO_RESULT, openaiChat, orphanResultText } from '../src/formats/openai-chat.js';
import { FIXED_ENV, FIXTURES, corpusFiles, ctx, describeCorpus, git, itCorpus, newStore, tempDir } from './helpers.js';

const env = FIXED_ENV;
const neutral = (f: StorageFormat, bytes: Uint8Array) => f.toNeutral!(f.parse(bytes, { lastOfFile: true }));
const blocks = (ms: NeutralMessage[]) => ms.flatMap((m) => m.content);
const calls = (ms: NeutralMessage[]) => blocks(ms).flatMap((b) => (b.type === 'tool_call' ? [b.id] : []));
const results = (ms: NeutralMessage[]) => blocks(ms).flatMap((b) => (b.type === 'tool_result' ? [b] : []));
const texts = (ms: NeutralMessage[]) => blocks(ms).flatMap((b) => (b.type === 'text' ? [b.text] : []));
/** For each result: whether a call with its id came before it. */
const paired = (ms: NeutralMessage[]) => {
  const seen = new Set<string>();
  return blocks(ms).flatMap((b) => {
    if (b.type === 'tool_call') seen.add(b.id);
    return b.type === 'tool_result' ? [seen.has(b.call_id)] : [];
  });
};

describe('structural translation', () => {
  itCorpus('keeps every Claude Code transcript’s calls, results and text through openai-chat-v1, and all of it through bureau-agent-v1', () => {
    const store = newStore();
    const totals = [0, 0, 0, 0];
    for (const [i, file] of corpusFiles('claude-code').filter((f) => statSync(f).size > 0).entries()) {
      const imported = ctx(store, ['import', 'claude-code', file, '-b', `t${i}`], { env });
      expect([basename(file), imported.code, imported.stderr]).toEqual([basename(file), 0, '']);
      const source = neutral(claudeCode, ctx(store, ['materialize', `t${i}`, '--stop', 'root'], { env }).bytes);
      const oa = ctx(store, ['materialize', `t${i}`, '--stop', 'root', '--format', 'openai-chat-v1'], { env });
      expect([basename(file), oa.code, oa.stderr]).toEqual([basename(file), 0, 'ctx: translated claude-code-v1 → openai-chat-v1 (structural)\n']);
      const back = neutral(openaiChat, oa.bytes);
      expect(calls(back)).toEqual(calls(source));
      // every result the API gets answers a call before it: a result whose call is outside the context
      // comes back as marked text where it was, and a call nothing answers gets the NO_RESULT stand-in
      const isPaired = paired(source);
      const answered = results(source).filter((_, k) => isPaired[k]);
      const orphans = results(source).filter((_, k) => !isPaired[k]);
      const answeredIds = new Set(answered.map((r) => r.call_id));
      const unanswered = calls(source).filter((id) => !answeredIds.has(id));
      expect(paired(back).every(Boolean)).toBe(true);
      const standIns = results(back).filter((r) => resultText(r.content) === NO_RESULT);
      expect(results(back).filter((r) => !standIns.includes(r)).map((r) => [r.call_id, resultText(r.content)])).toEqual(answered.map((r) => [r.call_id, resultText(r.content)]));
      expect(standIns.map((r) => r.call_id)).toEqual(unanswered);
      const marked = (t: string) => t.startsWith('[result of tool call ');
      expect(texts(back).filter((t) => !marked(t))).toEqual(texts(source));
      expect(texts(back).filter(marked)).toEqual(orphans.map((r) => orphanResultText(r.call_id, resultText(r.content))));
      const cbor = ctx(store, ['materialize', `t${i}`, '--stop', 'root', '--format', 'bureau-agent-v1'], { env });
      expect(cbor.code).toBe(0);
      expect(neutral(bureauAgent, cbor.bytes)).toEqual(source);
      totals[0] += calls(back).length;
      totals[1] += answered.length;
      totals[2] += standIns.length;
      totals[3] += orphans.length;
    }
    // [calls, results answering them, NO_RESULT stand-ins, results without their call]: randlee's
    // session ends on an unanswered call; the orphan is in the compaction subagent's file, which holds
    // a result whose call it does not
    expect(totals).toEqual([634, 633, 1, 1]);
  }, 60_000);

  it('reports the tier in --json and gives the same bytes from the cache', () => {
    const store = newStore();
    const file = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');
    expect(ctx(store, ['import', 'claude-code', file, '-b', 's'], { env }).code).toBe(0);
    const first = ctx(store, ['--json', 'materialize', 's', '--format', 'openai-chat-v1'], { env });
    const again = ctx(store, ['--json', 'materialize', 's', '--format', 'openai-chat-v1'], { env });
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toBe('ctx: translated claude-code-v1 → openai-chat-v1 (structural)\n');
    expect(JSON.parse(first.stdout)).toMatchObject({ format: 'openai-chat-v1', tier: 'structural' });
  });

  it('writes what the Chat Completions API would refuse as valid, marked messages', () => {
    const store = newStore();
    const messages = [
      { role: 'tool', content: [{ type: 'tool_result', call_id: 'gone', content: 'late output' }] },
      { role: 'user', content: [{ type: 'text', text: 'go on' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c2', name: 'ls', input: {} }] },
    ];
    expect(ctx(store, ['checkpoint', '-b', 'o', '--format', 'bureau-agent-v1', '-'], { env, input: encode(messages) }).code).toBe(0);
    const r = ctx(store, ['materialize', 'o', '--format', 'openai-chat-v1'], { env });
    expect([r.code, r.stdout]).toEqual([
      0,
      '[\n' +
        '{"role":"user","content":"[result of tool call gone, whose call is not in this context]\\nlate output"},\n' +
        '{"role":"user","content":"go on"},\n' +
        '{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"ls","arguments":"{}"}}]},\n' +
        '{"role":"tool","tool_call_id":"c2","content":"[no result recorded: the context ends before this call returned]"}\n' +
        ']\n',
    ]);
  });

  it('materializes a mixed chain into one requested format', () => {
    const store = newStore();
    const line = `${JSON.stringify({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'list files' } })}\n`;
    expect(ctx(store, ['checkpoint', '-b', 'm', '--format', 'claude-code-v1', '-'], { env, input: line }).code).toBe(0);
    const next = [{ role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'ls', input: { path: '.' } }] }, { role: 'tool', content: [{ type: 'tool_result', call_id: 'c1', content: 'a.txt' }] }];
    expect(ctx(store, ['checkpoint', '-b', 'm', '--format', 'bureau-agent-v1', '-'], { env, input: encode(next) }).code).toBe(0);
    const r = ctx(store, ['materialize', 'm', '--format', 'openai-chat-v1'], { env });
    expect(r.stderr).toBe('ctx: translated claude-code-v1, bureau-agent-v1 → openai-chat-v1 (structural)\n');
    expect(JSON.parse(r.stdout)).toEqual([
      { role: 'user', content: 'list files' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
    ]);
    // a format that cannot be written from the neutral model is still refused
    expect(ctx(store, ['materialize', 'm', '--format', 'gemini-cli-chat-v1'], { env })).toMatchObject({ code: 1, stdout: '' });
  });
});

describeCorpus('codex rollouts to openai-chat-v1', () => {
  // [file, function calls]: the function_call items in each rollout (both line shapes)
  const CASES: [string, number][] = [
    ...corpusFiles('codex').map((f): [string, number] => [f, { AcidicSoil: 39, jnarowski__agentcmd__rollout_2025_09_24: 123, jnarowski__agentcmd__rollout_2025_09_25: 34, kvsankar: 0 }[key(f)]!]),
    [join(FIXTURES, 'codex', 'legacy-rollout-2025-08-20T13-20-47-c27a914d-5f3b-4c1e-9a2d-7e8f6b5a4c3d.jsonl'), 2],
    [join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl'), 2],
  ];
  function key(f: string): string {
    const b = basename(f).replace(/-/g, '_');
    return ['AcidicSoil', 'jnarowski__agentcmd__rollout_2025_09_24', 'jnarowski__agentcmd__rollout_2025_09_25', 'kvsankar'].find((k) => b.startsWith(k))!;
  }

  it('keeps every function call and its output, paired', () => {
    const store = newStore();
    for (const [i, [file, n]] of CASES.entries()) {
      expect(ctx(store, ['import', 'codex', file, '-b', `x${i}`], { env }).code).toBe(0);
      const r = ctx(store, ['materialize', `x${i}`, '--stop', 'root', '--format', 'openai-chat-v1'], { env });
      const stored = basename(file).startsWith('legacy-') ? 'codex-rollout-v0' : 'codex-rollout-v1';
      expect([basename(file), r.code, r.stderr]).toEqual([basename(file), 0, `ctx: translated ${stored} → openai-chat-v1 (structural)\n`]);
      const messages = JSON.parse(r.stdout) as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[];
      const ids = messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
      expect([basename(file), ids.length]).toEqual([basename(file), n]);
      expect(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id).sort()).toEqual([...ids].sort());
    }
  });
});

describe('field-level tier', () => {
  const LEGACY = join(FIXTURES, 'codex', 'legacy-rollout-2025-08-20T13-20-47-c27a914d-5f3b-4c1e-9a2d-7e8f6b5a4c3d.jsonl');
  const UPGRADED = readFileSync(join(FIXTURES, 'codex', 'legacy-rollout-as-v1.jsonl'));
  const lines = (b: Uint8Array) => Buffer.from(b).toString('utf8').split(/(?<=\n)/);

  it('maps an older Codex rollout into the current envelope shape, and the conversation survives it', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'codex', LEGACY, '-b', 'old'], { env }).code).toBe(0);
    // stored as it was written, and the default materialization is those bytes
    expect(ctx(store, ['log', 'old', '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l).format)).toEqual(['codex-rollout-v0', 'codex-rollout-v0']);
    expect(ctx(store, ['materialize', 'old'], { env }).bytes.equals(readFileSync(LEGACY))).toBe(true);
    const up = ctx(store, ['materialize', 'old', '--format', 'codex-rollout-v1', '--json'], { env });
    expect([up.code, up.stderr]).toEqual([0, 'ctx: translated codex-rollout-v0 → codex-rollout-v1 (field-level)\n']);
    const record = JSON.parse(up.stdout);
    expect([record.format, record.tier, record.bytes]).toEqual(['codex-rollout-v1', 'field-level', UPGRADED.length]);
    expect(Buffer.from(record.content, 'utf8').equals(UPGRADED)).toBe(true);
    // every line an envelope; the 14 items kept, 4 state lines dropped, 2 user_message events added
    const parsed = lines(UPGRADED).map((l) => JSON.parse(l));
    expect(parsed.map((l) => `${l.type}/${l.payload.type ?? ''}`)).toEqual([
      'session_meta/', 'response_item/message', 'response_item/message', 'event_msg/user_message', 'response_item/reasoning', 'response_item/function_call',
      'response_item/function_call_output', 'response_item/message', 'response_item/message', 'event_msg/user_message', 'response_item/function_call',
      'response_item/function_call_output', 'response_item/message',
    ]);
    // read back as v1, it is the same conversation as the stored v0, with times and without the item ids newer CLIs drop
    const bare = (ms: NeutralMessage[]) => ms.map(({ role, content }) => ({ role, content }));
    const upgraded = codexRollout.toNeutral!(codexRollout.parse(UPGRADED));
    expect(bare(upgraded)).toEqual(bare(codexRolloutV0.toNeutral!(codexRolloutV0.parse(readFileSync(LEGACY)))));
    expect(upgraded.map((m) => [m.timestamp, m.ids])).toEqual(upgraded.map(() => ['2025-08-20T13:20:47.060Z', undefined]));
    // and it imports as a current rollout: same session, same turns
    const file = join(tempDir(), 'rollout-2025-08-20T13-20-47-c27a914d-5f3b-4c1e-9a2d-7e8f6b5a4c3d.jsonl');
    writeFileSync(file, UPGRADED);
    expect(ctx(store, ['import', 'codex', file, '-b', 'new'], { env }).stdout).toMatch(/^new\tctx-[0-9a-f]{12}\t2 commits\n$/);
    expect(ctx(store, ['log', 'new', '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l).format)).toEqual(['codex-rollout-v1', 'codex-rollout-v1']);
  });

  it('maps only the older runs of a mixed chain; a run without its header takes its commit’s time', () => {
    const store = newStore();
    const legacy = lines(readFileSync(LEGACY));
    const current = lines(readFileSync(join(FIXTURES, 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl'))).slice(1, 4).join('');
    const put = (format: string, text: string, now: string) => ctx(store, ['checkpoint', '-b', 'mix', '--format', format, '-'], { env: { ...env, CTX_NOW: now }, input: text });
    expect(put('codex-rollout-v0', legacy.slice(0, 12).join(''), '2026-01-01T00:00:00.000Z').code).toBe(0);
    const second = put('codex-rollout-v0', legacy.slice(12).join(''), '2026-01-01T00:00:01.000Z');
    expect(put('codex-rollout-v1', current, '2026-01-01T00:00:02.000Z').code).toBe(0);
    const whole = ctx(store, ['materialize', 'mix', '--json'], { env });
    const record = JSON.parse(whole.stdout);
    expect([whole.stderr, record.format, record.tier]).toEqual(['ctx: translated codex-rollout-v0, codex-rollout-v1 → codex-rollout-v1 (field-level)\n', 'codex-rollout-v1', 'field-level']);
    expect(record.content).toBe(UPGRADED.toString('utf8') + current);
    // from the second commit on, no header: the older lines take that commit's created_at
    const tail = ctx(store, ['materialize', 'mix', '--stop', second.stdout.trim()], { env });
    const first = JSON.parse(lines(tail.bytes)[0]);
    expect([first.timestamp, first.type, first.payload.role]).toEqual(['2026-01-01T00:00:01.000Z', 'response_item', 'user']);
    expect(Buffer.from(tail.bytes).toString('utf8').endsWith(current)).toBe(true);
  });
});

describe('rendering and raw tiers', () => {
  it('renders markdown exactly', () => {
    const store = newStore();
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is in src?', timestamp: '2026-01-02T03:04:05Z' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'List the directory.' },
          { type: 'text', text: 'Looking.' },
          { type: 'tool_call', id: 'c1', name: 'ls', input: { path: 'src' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool_result', call_id: 'c1', content: 'a\nb\nc\nd\ne\nf\ng', is_error: true }] },
      { role: 'assistant', author: 'subagent', content: [{ type: 'text', text: 'Seven files, one `odd`.' }] },
    ];
    expect(ctx(store, ['checkpoint', '-b', 'md', '--format', 'bureau-agent-v1', '-'], { env, input: encode(messages) }).code).toBe(0);
    const r = ctx(store, ['materialize', 'md', '--format', 'markdown'], { env });
    expect([r.code, r.stderr]).toEqual([0, 'ctx: translated bureau-agent-v1 → markdown (rendering)\n']);
    expect(r.stdout).toBe(
      [
        '# Context',
        '',
        '## 1. System',
        '',
        'Be brief.',
        '',
        '## 2. User · 2026-01-02T03:04:05Z',
        '',
        'What is in src?',
        '',
        '## 3. Assistant',
        '',
        '<details><summary>Thinking</summary>',
        '',
        'List the directory.',
        '',
        '</details>',
        '',
        'Looking.',
        '',
        '**→ ls** `c1` `{"path":"src"}`',
        '',
        '## 4. Tool results',
        '',
        '**← `c1`** (error)',
        '',
        '```',
        'a\nb\nc\nd\ne',
        '```',
        '*… 2 more lines*',
        '',
        '## 5. Assistant (subagent)',
        '',
        'Seven files, one `odd`.',
        '',
      ].join('\n'),
    );
  });

  it('falls back to raw for a stored format this build does not know, exit 0', async () => {
    const store = newStore();
    const line = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`;
    expect(ctx(store, ['checkpoint', '-b', 'u', '--format', 'claude-code-v1', '-'], { env, input: line }).code).toBe(0);
    // a commit from a future build, written with native git: format acme-notes-v3, artifact delta.txt
    const tip = git(store, ['rev-parse', 'refs/heads/u']).trim();
    const blob = (text: string) => execGit(store, ['hash-object', '-w', '--stdin'], text);
    // its artifact's true size and BLAKE3: every read checks them
    const stored = JSON.parse(git(store, ['cat-file', 'blob', `${tip}:meta.json`]));
    const keys = { ...stored, format: 'acme-notes-v3', artifact: await artifactHash(Buffer.from('note: hi\n')), artifact_size: 9 };
    const meta = `${JSON.stringify(Object.fromEntries(Object.keys(keys).sort().map((k) => [k, keys[k]])))}\n`;
    const tree = execGit(store, ['mktree'], `100644 blob ${blob('note: hi\n')}\tdelta.txt\n100644 blob ${blob(meta)}\tmeta.json\n`);
    const commit = execGit(store, ['commit-tree', tree, '-p', tip], 'delta\n\nCtx-Type: delta\nCtx-Format: acme-notes-v3\n');
    git(store, ['update-ref', 'refs/heads/u', commit]);
    for (const format of [[], ['--format', 'openai-chat-v1'], ['--format', 'markdown']]) {
      const r = ctx(store, ['--json', 'materialize', 'u', ...format], { env });
      expect([r.code, r.stderr]).toEqual([0, "ctx: this build does not know the stored format 'acme-notes-v3': wrote every artifact as it is (raw)\n"]);
      const record = JSON.parse(r.stdout);
      expect([record.format, record.tier]).toEqual(['raw', 'raw']);
      expect(JSON.parse(record.content).artifacts.map((a: { format: string; data: string }) => [a.format, a.data])).toEqual([
        ['claude-code-v1', line],
        ['acme-notes-v3', 'note: hi\n'],
      ]);
    }
  });
});

function execGit(gitdir: string, args: string[], input: string): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { input, encoding: 'utf8' }).trim();
}
