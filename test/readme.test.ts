// The README's quick start prints exactly what the README shows.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, ctx, newStore, tempDir } from './helpers.js';

it('npm run demo prints the log shown in the README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const shown = /`npm run demo` writes[^]*?```\n([^]*?)```/.exec(readme)![1];
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CTX_')) env[k] = v;
  const r = spawnSync(process.execPath, ['bench/demo.mjs'], { cwd: ROOT, env, encoding: 'utf8' });
  rmSync(join(ROOT, '.ctx-demo'), { recursive: true, force: true });
  expect(r.status).toBe(0);
  // the README drops the trailing tab of an empty summary
  expect(r.stdout.replace(/\t\n/g, '\n')).toBe(shown);
});

it("the tour's commands name commits a user's store has: branches and NAME~N, not the demo's ids", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const tour = /## A tour\n+```\n([^]*?)```/.exec(readme)![1];
  expect(tour.match(/ctx-[0-9a-f]{4,}/g) ?? []).toEqual([]);
  // run them on a store of someone else's import of the same session: other ids, same names
  const store = newStore();
  const env = { CTX_PRINCIPAL: 'bob', CTX_MACHINE: 'desk', CTX_NOW: '2026-05-06T07:08:09.000Z' };
  expect(ctx(store, ['import', 'claude-code', join(ROOT, 'fixtures', 'claude-code', 'compacted-session.jsonl'), '-b', 'alice/auth-fix'], { env }).code).toBe(0);
  const commands = tour.split('\n').filter((l) => /^ctx (show|fork|annotate) /.test(l));
  expect(commands).toHaveLength(6);
  for (const command of commands) {
    const args = [...command.replace(/\s+#.*$/, '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]).slice(1);
    const r = ctx(store, args, { env });
    expect([command, r.code, r.stderr]).toEqual([command, 0, '']);
  }
});

it('the library example runs as written against the built bundle', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const code = /## As a library\n+```ts\n([^]*?)```/.exec(readme)![1];
  const dir = tempDir();
  writeFileSync(join(dir, 'example.mjs'), code.replace("from 'agent-ctx'", `from ${JSON.stringify(join(ROOT, 'dist', 'index.js'))}`));
  copyFileSync(join(ROOT, 'fixtures', 'codex', 'rollout-2025-11-20T09-00-00-0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d.jsonl'), join(dir, 'rollout.jsonl'));
  const env: NodeJS.ProcessEnv = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CTX_')) env[k] = v;
  const r = spawnSync(process.execPath, ['example.mjs'], { cwd: dir, env, encoding: 'utf8' });
  expect([r.status, r.stderr, r.stdout]).toEqual([0, '', 'ctx-e36f05e49838b3a5c71805ff7f75a6fd6b66b998 1\n']);
  expect(ctx(join(dir, '.ctx'), ['branch']).stdout.split('\n').map((l) => l.split('\t')[0])).toEqual(['agent/run-42', 'agent/run-42-alt', 'codex/0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d', '']);
});

it('the OpenAI Agents SDK example runs as written against the built bundle, the model pointed at the mock', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const code = /### OpenAI Agents SDK\n[^]*?```ts\n([^]*?)```/.exec(readme)![1];
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

it('the LangGraph example runs as written against the built bundle, and ctx grep finds its message', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const code = /## LangGraph\n[^]*?```ts\n([^]*?)```/.exec(readme)![1];
  const dir = tempDir();
  // the example's packages resolve as in a user's project: from a node_modules beside it
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'example.mjs'), code.replace("from 'agent-ctx/langgraph'", `from ${JSON.stringify(join(ROOT, 'dist', 'langgraph.js'))}`));
  const r = spawnSync(process.execPath, ['example.mjs'], { cwd: dir, encoding: 'utf8' });
  expect([r.status, r.stderr, r.stdout]).toEqual([0, '', '2\n']);
  const grep = ctx(join(dir, '.ctx'), ['grep', 'tokens expire']).stdout.split('\n').filter(Boolean).map((l) => l.replace(/^ctx-[0-9a-f]{12}\t/, 'ctx-…  ').replace(/\t/g, '  '));
  expect(grep).toEqual(/## LangGraph\n[^]*?\$ ctx grep 'tokens expire'\n([^]*?)```/.exec(readme)![1].split('\n').filter(Boolean));
});
