// The examples of docs/library.md, docs/integrations.md and docs/langgraph.md run as written, on the built bundle.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, ctx, tempDir } from './helpers.js';

const doc = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');

it('the library example of docs/library.md runs as written against the built bundle', () => {
  const code = /# The library\n+```ts\n([^]*?)```/.exec(doc('library.md'))![1];
  const dir = tempDir();
  writeFileSync(join(dir, 'example.mjs'), code.replace("from 'agent-ctx'", `from ${JSON.stringify(join(ROOT, 'dist', 'index.js'))}`));
  copyFileSync(join(ROOT, 'fixtures', 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl'), join(dir, 'rollout.jsonl'));
  const env: NodeJS.ProcessEnv = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CTX_')) env[k] = v;
  const r = spawnSync(process.execPath, ['example.mjs'], { cwd: dir, env, encoding: 'utf8' });
  expect([r.status, r.stderr, r.stdout]).toEqual([0, '', 'ctx-e36f05e49838b3a5c71805ff7f75a6fd6b66b998 1\n']);
  expect(ctx(join(dir, '.ctx'), ['branch']).stdout.split('\n').map((l) => l.split('\t')[0])).toEqual(['agent/run-42', 'agent/run-42-alt', 'codex/0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d', '']);
});

it('the OpenAI Agents SDK example of docs/integrations.md runs as written against the built bundle, the model pointed at the mock', async () => {
  const code = /## `agent-ctx\/openai-agents`\n[^]*?```ts\n([^]*?)```/.exec(doc('integrations.md'))![1];
  const dir = tempDir();
  const agents = import.meta.resolve('@openai/agents');
  // the mock speaks Chat Completions; tracing would call out
  const setup = `import { setOpenAIAPI, setTracingDisabled } from ${JSON.stringify(agents)};\nsetOpenAIAPI('chat_completions');\nsetTracingDisabled(true);\n`;
  const body = code
    .replace("from '@openai/agents'", `from ${JSON.stringify(agents)}`)
    .replace("from 'agent-ctx'", `from ${JSON.stringify(join(ROOT, 'dist', 'index.js'))}`)
    .replace("from 'agent-ctx/openai-agents'", `from ${JSON.stringify(join(ROOT, 'dist', 'openai-agents.js'))}`);
  writeFileSync(join(dir, 'example.mjs'), setup + body);
  const { startMockChat, text } = await import('./mock-chat-api.js');
  const mock = await startMockChat((_, n) => text(n === 0 ? 'San Francisco.' : 'California.'));
  try {
    const env: NodeJS.ProcessEnv = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z', OPENAI_BASE_URL: mock.baseUrl, OPENAI_API_KEY: 'sk-test-dummy' };
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CTX_') && !k.startsWith('OPENAI_')) env[k] ??= v;
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const p = spawn(process.execPath, ['example.mjs'], { cwd: dir, env });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (b) => (stdout += b));
      p.stderr.on('data', (b) => (stderr += b));
      p.on('close', (code) => done({ code, stdout, stderr }));
    });
    expect([r.code, r.stderr, r.stdout]).toEqual([0, '', 'California. 4 3\n']);
    // the second request carried the first run's items
    expect(mock.requests[1].body.messages).toEqual([
      { role: 'system', content: 'Reply briefly.' },
      { role: 'user', content: 'Which city is the Golden Gate Bridge in?' },
      { role: 'assistant', content: [{ type: 'text', text: 'San Francisco.', role: 'assistant' }] },
      { role: 'user', content: 'And which state?' },
    ]);
    const log = ctx(join(dir, '.ctx'), ['log', 'openai-agents/support-42-alt']).stdout;
    expect(log.split('\n').map((l) => l.split('\t').at(-1))).toEqual(['popped 1 item (message), 3 left', 'And which state?', 'Which city is the Golden Gate Bridge in?', '']);
  } finally {
    await mock.close();
  }
});

it('the LangGraph example of docs/langgraph.md runs as written against the built bundle, and ctx grep finds its message', () => {
  const langgraph = doc('langgraph.md');
  const code = /## A whole graph\n[^]*?```ts\n([^]*?)```/.exec(langgraph)![1];
  const dir = tempDir();
  // the example's packages resolve as in a user's project: from a node_modules beside it
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'example.mjs'), code.replace("from 'agent-ctx/langgraph'", `from ${JSON.stringify(join(ROOT, 'dist', 'langgraph.js'))}`));
  const r = spawnSync(process.execPath, ['example.mjs'], { cwd: dir, encoding: 'utf8' });
  expect([r.status, r.stderr, r.stdout]).toEqual([0, '', '2\n']);
  const grep = ctx(join(dir, '.ctx'), ['grep', 'tokens expire']).stdout.split('\n').filter(Boolean).map((l) => l.replace(/^ctx-[0-9a-f]{12}\t/, 'ctx-…  ').replace(/\t/g, '  '));
  expect(grep).toEqual(/## A whole graph\n[^]*?\$ ctx grep 'tokens expire'\n([^]*?)```/.exec(langgraph)![1].split('\n').filter(Boolean));
});
