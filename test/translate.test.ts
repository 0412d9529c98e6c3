// Translation tiers (DESIGN.md §4): every corpus transcript through openai-chat-v1 and bureau-agent-v1
// keeps its tool calls, results and text; Codex rollouts of both shapes keep their function calls;
// markdown renders a fixed fixture exactly; an unknown stored format falls back to raw, exit 0.
import { encode } from 'cbor-x';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactHash } from '../src/core/blake3.js';
import { bureauAgent } from '../src/formats/bureau-agent.js';
import { claudeCode } from '../src/formats/claude-code.js';
import { codexRollout } from '../src/formats/codex-rollout.js';
import { codexRolloutV0 } from '../src/formats/codex-rollout-v0.js';
import type { StorageFormat } from '../src/formats/format.js';
import { forRuntime, resultText, type NeutralMessage, type TextBlock } from '../src/core/neutral.js';
import { callId } from '../src/formats/gemini-messages.js';
import { claudeLinesFromNeutral } from '../src/formats/claude-code-write.js';
import { geminiJsonl } from '../src/formats/gemini-jsonl.js';
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
        '**→ ls** `c1` `path: src`',
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
  it('writes a call id the Messages API would refuse as one it takes, the same for its call and its result, two ids never as one', () => {
    const call = (id: string) => ({ type: 'tool_call' as const, id, name: 'ls', input: {} });
    const result = (id: string) => ({ type: 'tool_result' as const, call_id: id, content: 'ok' });
    const bytes = claudeLinesFromNeutral([
      { role: 'assistant', content: [call('a.b'), call('a:b'), call('toolu_01-x')] },
      { role: 'tool', content: [result('a.b'), result('a:b'), result('toolu_01-x')] },
    ]);
    const [calls, results] = Buffer.from(bytes).toString('utf8').trimEnd().split('\n').map((l) => JSON.parse(l).message.content);
    const ids = ['a_b_' + sha8('a.b'), 'a_b_' + sha8('a:b'), 'toolu_01-x'];
    expect(calls.map((b: { id: string }) => b.id)).toEqual(ids);
    expect(results.map((b: { tool_use_id: string }) => b.tool_use_id)).toEqual(ids);
    expect(ids.slice(0, 2)).toEqual(['a_b_2e7336dc', 'a_b_6783a31e']);
  });
});

const sha8 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);

function execGit(gitdir: string, args: string[], input: string): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { input, encoding: 'utf8' }).trim();
}

// A runtime's own preamble (its system prompt, permissions, skills, environment, session context) is
// stale in another runtime, which adds its own: translation into another runtime's format leaves it
// out and carries over what the user wrote (docs/format.md, "Runtime preamble"). The fixtures are
// Codex 0.171.0 and Gemini CLI 0.61.0 sessions of the resume matrix's turn, trimmed.
describe('translation between runtimes', () => {
  const CODEX = join(FIXTURES, 'codex', 'rollout-2026-03-01T10-00-00-01a21dd1-845b-7400-9ae0-912b49e4f6bb.jsonl');
  const GEMINI = join(FIXTURES, 'gemini-cli', 'session-2026-03-02T09-00-2e7e3091.jsonl');
  const codexPreamble = { runtime: 'codex', kind: 'preamble' } as const;
  const geminiPreamble = { runtime: 'gemini-cli', kind: 'preamble' } as const;
  const SESSION_CONTEXT =
    "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Monday, March 2, 2026 (formatted according to the user's locale).\nMy operating system is: linux\nThe project's temporary directory is: /work/gemini-cli/home/.gemini/tmp/proj\n- **Workspace Directories:**\n  - /work/proj\n- **Directory Structure:**\n\nShowing up to 200 items (files + folders).\n\n/work/proj/\n└───notes.txt\n\n\n</session_context>";
  const AGENTS_MD = '# AGENTS.md instructions for /work/proj\n\n<INSTRUCTIONS>\nRun the tests before you commit.\n</INSTRUCTIONS>';
  const text = (t: string): TextBlock[] => [{ type: 'text', text: t }];

  it('reads Codex’s system prompt, developer sections and environment as its preamble, AGENTS.md and untagged developer text as the user’s instructions', () => {
    const developer = { timestamp: '2026-03-01T10:00:01.000Z', ids: { id: 'msg_01a21dd1-85f9-7ef1-8847-0c7f5138fadc' } };
    expect(neutral(codexRollout, readFileSync(CODEX))).toEqual([
      { role: 'system', content: text('You are a coding agent running in the Codex CLI.'), origin: codexPreamble, timestamp: '2026-03-01T10:00:00.000Z' },
      { role: 'system', content: [...text('<skills_instructions>\n## Skills\n- skill-installer\n</skills_instructions>'), ...text('<permissions instructions>\nsandbox_mode is danger-full-access.\n</permissions instructions>')], ...developer, origin: codexPreamble },
      { role: 'system', content: text('Answer in English.'), ...developer, origin: { runtime: 'codex', kind: 'instructions' } },
      { role: 'user', content: text('<environment_context>\n  <cwd>/work/proj</cwd>\n  <shell>bash</shell>\n</environment_context>'), timestamp: '2026-03-01T10:00:02.000Z', ids: { id: 'msg_01a21dd1-85f9-7ef1-8847-0c8a87153178' }, origin: codexPreamble },
      { role: 'user', content: text(AGENTS_MD), timestamp: '2026-03-01T10:00:03.000Z', ids: { id: 'msg_agents' }, origin: { runtime: 'codex', kind: 'instructions' } },
      { role: 'user', content: text('read notes.txt please'), timestamp: '2026-03-01T10:00:04.000Z', ids: { id: 'msg_01a21dd1-8665-7710-8cc4-93f6babff56a' } },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'call_notes', name: 'exec_command', input: { cmd: 'cat notes.txt' } }], timestamp: '2026-03-01T10:00:05.000Z', ids: { id: 'fc_call_notes' } },
      { role: 'tool', content: [{ type: 'tool_result', call_id: 'call_notes', content: 'hello from notes\n' }], timestamp: '2026-03-01T10:00:06.000Z', ids: { id: 'fco_01a21dd1-8872-73e3-9d35-f24991952782' } },
      { role: 'assistant', content: text('The notes say hello.'), timestamp: '2026-03-01T10:00:07.000Z', ids: { id: 'msg_efdc7a1f' } },
    ]);
  });

  it('reads Gemini CLI’s session context as its preamble, and a call’s id as the model saw it (without the tool’s name Gemini CLI records before it)', () => {
    expect(neutral(geminiJsonl, readFileSync(GEMINI))).toEqual([
      { role: 'user', content: text(SESSION_CONTEXT), timestamp: '2026-03-02T09:00:32.250Z', ids: { id: 'd04923d38bb0f6017037e74183378ef4' }, origin: geminiPreamble },
      { role: 'user', content: text('read notes.txt please'), timestamp: '2026-03-02T09:00:32.689Z', ids: { id: 'f8f82108-3a81-4604-a54e-15f279b9ff6f' } },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'read_file_1795796612933_0', name: 'read_file', input: { file_path: '/work/proj/notes.txt' } }], timestamp: '2026-03-02T09:00:34.023Z', ids: { id: 'a537db23-4909-42ae-957f-2e262dfff980' } },
      { role: 'tool', content: [{ type: 'tool_result', call_id: 'read_file_1795796612933_0', content: 'hello from notes\n' }], timestamp: '2026-03-02T09:00:34.424Z' },
      { role: 'assistant', content: text('The notes say hello.'), timestamp: '2026-03-02T09:00:34.648Z', ids: { id: 'a692047f-0308-4435-ab6b-03e6803bb86e' } },
    ]);
    // an id that merely starts like its tool's name is kept
    expect(callId({ id: 'read_file__', name: 'read_file' })).toBe('read_file__');
    expect(callId({ id: 'ls__ls_1_0', name: 'ls' })).toBe('ls_1_0');
    expect(callId({ id: 'rf-1', name: 'read_file' })).toBe('rf-1');
  });

  it('drops another runtime’s preamble, carries its system-role instructions over as a marked user message, keeps its own and everything else', () => {
    const ms: NeutralMessage[] = [
      { role: 'system', content: text('base'), origin: codexPreamble },
      { role: 'system', content: text('Answer in English.'), origin: { runtime: 'codex', kind: 'instructions' } },
      { role: 'user', content: text(AGENTS_MD), origin: { runtime: 'codex', kind: 'instructions' } },
      { role: 'user', content: text('hi') },
    ];
    expect(forRuntime(ms, 'codex')).toEqual(ms);
    expect(forRuntime(ms, 'claude-code')).toEqual([
      { role: 'user', content: text('Instructions carried over from codex:\n\nAnswer in English.'), origin: { runtime: 'codex', kind: 'instructions' } },
      ms[2],
      ms[3],
    ]);
  });

  it('translates each into the other runtimes without its preamble, instructions carried over and call ids unchanged: exact bytes', () => {
    const store = newStore();
    expect(ctx(store, ['import', 'codex', CODEX, '-b', 'cx'], { env }).code).toBe(0);
    expect(ctx(store, ['import', 'gemini-cli', GEMINI, '-b', 'gm'], { env }).code).toBe(0);
    const cases: [string, string, string[]][] = [
      ['cx', 'gemini-cli-jsonl-v1', [
        "{\"id\":\"msg_01a21dd1-85f9-7ef1-8847-0c7f5138fadc\",\"timestamp\":\"2026-03-01T10:00:01.000Z\",\"type\":\"user\",\"content\":[{\"text\":\"Instructions carried over from codex:\\n\\nAnswer in English.\"}]}\n",
        "{\"id\":\"msg_agents\",\"timestamp\":\"2026-03-01T10:00:03.000Z\",\"type\":\"user\",\"content\":[{\"text\":\"# AGENTS.md instructions for /work/proj\\n\\n<INSTRUCTIONS>\\nRun the tests before you commit.\\n</INSTRUCTIONS>\"}]}\n",
        "{\"id\":\"msg_01a21dd1-8665-7710-8cc4-93f6babff56a\",\"timestamp\":\"2026-03-01T10:00:04.000Z\",\"type\":\"user\",\"content\":[{\"text\":\"read notes.txt please\"}]}\n",
        "{\"id\":\"fc_call_notes\",\"timestamp\":\"2026-03-01T10:00:05.000Z\",\"type\":\"gemini\",\"content\":[{\"functionCall\":{\"id\":\"call_notes\",\"name\":\"exec_command\",\"args\":{\"cmd\":\"cat notes.txt\"}}}]}\n",
        "{\"id\":\"fco_01a21dd1-8872-73e3-9d35-f24991952782\",\"timestamp\":\"2026-03-01T10:00:06.000Z\",\"type\":\"user\",\"content\":[{\"functionResponse\":{\"id\":\"call_notes\",\"name\":\"exec_command\",\"response\":{\"output\":\"hello from notes\\n\"}}}]}\n",
        "{\"id\":\"msg_efdc7a1f\",\"timestamp\":\"2026-03-01T10:00:07.000Z\",\"type\":\"gemini\",\"content\":[{\"text\":\"The notes say hello.\"}]}\n",
      ]],
      ['gm', 'codex-rollout-v1', [
        "{\"timestamp\":\"2026-03-02T09:00:32.689Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"\",\"timestamp\":\"2026-03-02T09:00:32.689Z\",\"cwd\":\"\",\"originator\":\"ctx\",\"cli_version\":\"\",\"source\":\"exec\",\"model_provider\":\"\"}}\n",
        "{\"timestamp\":\"2026-03-02T09:00:32.689Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"read notes.txt please\"}]}}\n",
        "{\"timestamp\":\"2026-03-02T09:00:32.689Z\",\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"read notes.txt please\",\"images\":[]}}\n",
        "{\"timestamp\":\"2026-03-02T09:00:34.023Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\",\"name\":\"read_file\",\"arguments\":\"{\\\"file_path\\\":\\\"/work/proj/notes.txt\\\"}\",\"call_id\":\"read_file_1795796612933_0\"}}\n",
        "{\"timestamp\":\"2026-03-02T09:00:34.424Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"function_call_output\",\"call_id\":\"read_file_1795796612933_0\",\"output\":\"hello from notes\\n\"}}\n",
        "{\"timestamp\":\"2026-03-02T09:00:34.648Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"The notes say hello.\"}]}}\n",
      ]],
      ['cx', 'claude-code-v1', [
        "{\"parentUuid\":null,\"isSidechain\":false,\"userType\":\"external\",\"sessionId\":\"7791eb74-3a1f-45c4-a6a3-666b4afca103\",\"version\":\"2.1.330\",\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Instructions carried over from codex:\\n\\nAnswer in English.\"}]},\"uuid\":\"aae386b3-9ae6-46a6-a07d-c97163ce4877\",\"timestamp\":\"2026-03-01T10:00:01.000Z\"}\n",
        "{\"parentUuid\":\"aae386b3-9ae6-46a6-a07d-c97163ce4877\",\"isSidechain\":false,\"userType\":\"external\",\"sessionId\":\"7791eb74-3a1f-45c4-a6a3-666b4afca103\",\"version\":\"2.1.330\",\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"# AGENTS.md instructions for /work/proj\\n\\n<INSTRUCTIONS>\\nRun the tests before you commit.\\n</INSTRUCTIONS>\"}]},\"uuid\":\"a4190315-0ba6-443c-ab9d-12898364d314\",\"timestamp\":\"2026-03-01T10:00:03.000Z\"}\n",
        "{\"parentUuid\":\"a4190315-0ba6-443c-ab9d-12898364d314\",\"isSidechain\":false,\"userType\":\"external\",\"sessionId\":\"7791eb74-3a1f-45c4-a6a3-666b4afca103\",\"version\":\"2.1.330\",\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"read notes.txt please\"}]},\"uuid\":\"2fb2b945-8938-4dce-a49f-8b2717ad0504\",\"timestamp\":\"2026-03-01T10:00:04.000Z\"}\n",
        "{\"parentUuid\":\"2fb2b945-8938-4dce-a49f-8b2717ad0504\",\"isSidechain\":false,\"userType\":\"external\",\"sessionId\":\"7791eb74-3a1f-45c4-a6a3-666b4afca103\",\"version\":\"2.1.330\",\"type\":\"assistant\",\"message\":{\"id\":\"msg_ctx_a912543659264833aa23d3c76dfb3fad\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"ctx-translated\",\"content\":[{\"type\":\"tool_use\",\"id\":\"call_notes\",\"name\":\"exec_command\",\"input\":{\"cmd\":\"cat notes.txt\"}}],\"stop_reason\":\"tool_use\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":0,\"output_tokens\":0}},\"uuid\":\"a9125436-5926-4833-aa23-d3c76dfb3fad\",\"timestamp\":\"2026-03-01T10:00:05.000Z\"}\n",
        "{\"parentUuid\":\"a9125436-5926-4833-aa23-d3c76dfb3fad\",\"isSidechain\":false,\"userType\":\"external\",\"sessionId\":\"7791eb74-3a1f-45c4-a6a3-666b4afca103\",\"version\":\"2.1.330\",\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"call_notes\",\"content\":\"hello from notes\\n\"}]},\"uuid\":\"fbac6319-3682-45d6-afcb-afd092a29253\",\"timestamp\":\"2026-03-01T10:00:06.000Z\"}\n",
        "{\"parentUuid\":\"fbac6319-3682-45d6-afcb-afd092a29253\",\"isSidechain\":false,\"userType\":\"external\",\"sessionId\":\"7791eb74-3a1f-45c4-a6a3-666b4afca103\",\"version\":\"2.1.330\",\"type\":\"assistant\",\"message\":{\"id\":\"msg_ctx_1d3564b382ee4323a848293b94744a1f\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"ctx-translated\",\"content\":[{\"type\":\"text\",\"text\":\"The notes say hello.\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":0,\"output_tokens\":0}},\"uuid\":\"1d3564b3-82ee-4323-a848-293b94744a1f\",\"timestamp\":\"2026-03-01T10:00:07.000Z\"}\n",
      ]],
      ['gm', 'claude-code-v1', [
        "{\"parentUuid\":null,\"isSidechain\":false,\"userType\":\"external\",\"sessionId\":\"7791eb74-3a1f-45c4-a6a3-666b4afca103\",\"version\":\"2.1.330\",\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"read notes.txt please\"}]},\"uuid\":\"aed63fee-46ab-49df-a896-9045962e7e66\",\"timestamp\":\"2026-03-02T09:00:32.689Z\"}\n",
        "{\"parentUuid\":\"aed63fee-46ab-49df-a896-9045962e7e66\",\"isSidechain\":false,\"userType\":\"external\",\"sessionId\":\"7791eb74-3a1f-45c4-a6a3-666b4afca103\",\"version\":\"2.1.330\",\"type\":\"assistant\",\"message\":{\"id\":\"msg_ctx_ec26b38be2544b7aaae54fa08dcdee76\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"ctx-translated\",\"content\":[{\"type\":\"tool_use\",\"id\":\"read_file_1795796612933_0\",\"name\":\"read_file\",\"input\":{\"file_path\":\"/work/proj/notes.txt\"}}],\"stop_reason\":\"tool_use\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":0,\"output_tokens\":0}},\"uuid\":\"ec26b38b-e254-4b7a-aae5-4fa08dcdee76\",\"timestamp\":\"2026-03-02T09:00:34.023Z\"}\n",
        "{\"parentUuid\":\"ec26b38b-e254-4b7a-aae5-4fa08dcdee76\",\"isSidechain\":false,\"userType\":\"external\",\"sessionId\":\"7791eb74-3a1f-45c4-a6a3-666b4afca103\",\"version\":\"2.1.330\",\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"read_file_1795796612933_0\",\"content\":\"hello from notes\\n\"}]},\"uuid\":\"4cefa06d-4acb-4b25-a9fe-17ee0996563e\",\"timestamp\":\"2026-03-02T09:00:34.424Z\"}\n",
        "{\"parentUuid\":\"4cefa06d-4acb-4b25-a9fe-17ee0996563e\",\"isSidechain\":false,\"userType\":\"external\",\"sessionId\":\"7791eb74-3a1f-45c4-a6a3-666b4afca103\",\"version\":\"2.1.330\",\"type\":\"assistant\",\"message\":{\"id\":\"msg_ctx_04085f95c5dc4ffba6fd5c11448d06b1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"ctx-translated\",\"content\":[{\"type\":\"text\",\"text\":\"The notes say hello.\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":0,\"output_tokens\":0}},\"uuid\":\"04085f95-c5dc-4ffb-a6fd-5c11448d06b1\",\"timestamp\":\"2026-03-02T09:00:34.648Z\"}\n",
      ]],
    ];
    for (const [branch, format, lines] of cases) {
      const r = ctx(store, ['materialize', branch, '--format', format], { env });
      expect([branch, format, r.code, r.stdout.split(/(?<=\n)/)]).toEqual([branch, format, 0, lines]);
    }
    // the same runtime's own materialization and export stay byte for byte what it wrote, preamble included
    expect(ctx(store, ['materialize', 'cx'], { env }).stdout).toBe(readFileSync(CODEX, 'utf8'));
    expect(ctx(store, ['materialize', 'gm'], { env }).stdout).toBe(readFileSync(GEMINI, 'utf8'));
  });
});
