// agent-ctx/claude-agent-sdk on the built bundle: the real Claude Agent SDK (.ci/agents, pinned
// there) runs `query()` against the mock Messages API with ctx's hooks in its options; each
// query's session lands on claude/<session>, byte-exact with the transcript the SDK's Claude Code
// wrote, captured in this process (no `ctx hook` subprocess).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAgent } from './agent-clis.js';
import { claudeEnv, toolThenText, transcripts } from './claude-cli.js';
import { ROOT, ctx, fsck, git, tempDir } from './helpers.js';
import { startMockApi, type MockApi } from './mock-anthropic-api.js';
// @ts-expect-error the bundle is JavaScript; its types are in dist/types
import { ctxCapture, ctxQuery } from '../dist/claude-agent-sdk.js';

const SDK = join(ROOT, '.ci', 'agents', 'node_modules', '@anthropic-ai', 'claude-agent-sdk', 'sdk.mjs');
const MISSING = existsSync(SDK) ? null : `${SDK} not found: \`npm run agents\` installs the pinned Claude Agent SDK`;

type Message = { type: string; subtype?: string; session_id?: string; result?: string };
type Query = (params: { prompt: string; options?: Record<string, unknown> }) => AsyncIterable<Message>;

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi(toolThenText());
});
afterAll(() => api?.close());

/** Every message of a query, to its result. */
async function drain(messages: AsyncIterable<Message>): Promise<Message[]> {
  const out: Message[] = [];
  for await (const m of messages) out.push(m);
  return out;
}

describeAgent('agent-ctx/claude-agent-sdk with the real Claude Agent SDK (0.3.332)', MISSING, () => {
  it('captures a query and its resumed query in-process, byte-exact with the transcript, two commits a query (the turn at its Stop, the lines after it at the end)', async () => {
    const { query } = (await import(pathToFileURL(SDK).href)) as { query: Query };
    const root = tempDir();
    const dir = join(root, 'project');
    mkdirSync(dir, { recursive: true });
    const store = join(root, 'store', '.ctx');
    const c = claudeEnv(root, api.url);
    const env = Object.fromEntries(Object.entries(c.env).filter((e): e is [string, string] => e[1] !== undefined));
    const errors: string[] = [];
    const options = { cwd: dir, env, allowedTools: ['Bash'], settingSources: [] };
    const onError = (e: Error, event: string) => errors.push(`${event}: ${e.message}`);

    // ctxQuery: the SDK's query with the hooks in, and the lines after the last hook once it ends
    const first = await drain(ctxQuery(query, { prompt: 'say a word', options }, { store, onError }));
    expect(first.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'answer 1' });
    const [t] = transcripts(c);
    const branch = `claude/${t.session}`;
    const materialized = () => ctx(store, ['materialize', branch, '--stop', 'root']).bytes;
    const subjects = () => git(store, ['log', '--format=%s', branch]).trim().split('\n');
    expect(materialized().equals(readFileSync(t.file))).toBe(true);
    // the turn at its Stop; then what Claude Code writes after its last hook (stop_hook_summary, last-prompt, cost-state)
    expect(subjects()).toEqual(['delta: 0 messages', 'say a word']);

    // ctxCapture: the hooks in the options by hand, end() after the resumed query's last message
    const capture = ctxCapture({ store, onError });
    const second = await drain(query({ prompt: 'again', options: capture.withHooks({ ...options, resume: t.session }) }));
    await capture.end();
    expect(second.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'answer 2' });
    expect(transcripts(c)).toHaveLength(1);
    expect(materialized().equals(readFileSync(t.file))).toBe(true);
    // the same two commits for the resumed turn, on the same branch (no fork: the transcript grew)
    const all = subjects();
    expect(all).toHaveLength(4);
    expect(all.slice(1)).toEqual(['again', 'delta: 0 messages', 'say a word']);
    expect(ctx(store, ['branch']).stdout.trim().split('\n').map((l) => l.split('\t')[0])).toEqual([branch]);
    expect(errors).toEqual([]);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    expect(ctx(store, ['verify']).code).toBe(0);
  }, 180_000);

  it('a capture that fails goes to onError, once per hook, and the query goes on', async () => {
    const { query } = (await import(pathToFileURL(SDK).href)) as { query: Query };
    const root = tempDir();
    const dir = join(root, 'project');
    mkdirSync(dir, { recursive: true });
    // the store named is a regular file: no store can be opened or made there
    const store = join(root, 'not-a-store');
    writeFileSync(store, 'x');
    const c = claudeEnv(root, api.url);
    const env = Object.fromEntries(Object.entries(c.env).filter((e): e is [string, string] => e[1] !== undefined));
    const errors: string[] = [];
    const out = await drain(ctxQuery(query, { prompt: 'say a word', options: { cwd: dir, env, allowedTools: ['Bash'], settingSources: [] } }, { store, onError: (e: Error, event: string) => errors.push(`${event}: ${e.message}`) }));
    expect(out.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
    expect(errors).toEqual([`Stop: ${store} exists and is not a context repository`, `SessionEnd: ${store} exists and is not a context repository`]);
    expect(readFileSync(store, 'utf8')).toBe('x');
  }, 180_000);

  it("runs docs/integrations.md's example as written: the session on claude/<session_id>, byte-exact", async () => {
    const doc = readFileSync(join(ROOT, 'docs', 'integrations.md'), 'utf8');
    const code = /## `agent-ctx\/claude-agent-sdk`\n[^]*?```ts\n([^]*?)```/.exec(doc)![1];
    const root = tempDir();
    const dir = join(root, 'project');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'example.mjs'),
      code.replace("from '@anthropic-ai/claude-agent-sdk'", `from ${JSON.stringify(pathToFileURL(SDK).href)}`).replace("from 'agent-ctx/claude-agent-sdk'", `from ${JSON.stringify(join(ROOT, 'dist', 'claude-agent-sdk.js'))}`),
    );
    const c = claudeEnv(root, api.url);
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const p = spawn(process.execPath, ['example.mjs'], { cwd: dir, env: { ...c.env, CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box' } });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (b) => (stdout += b));
      p.stderr.on('data', (b) => (stderr += b));
      p.on('close', (code) => done({ code, stdout, stderr }));
    });
    const [t] = transcripts(c);
    // the mock numbers its answers across the file's tests: this is its fourth
    expect([r.code, r.stderr, r.stdout]).toEqual([0, '', `${t.session} answer 4\n`]);
    const store = join(dir, '.ctx');
    expect(ctx(store, ['materialize', `claude/${t.session}`, '--stop', 'root']).bytes.equals(readFileSync(t.file))).toBe(true);
    expect(git(store, ['rev-list', '--count', `claude/${t.session}`]).trim()).toBe('2');
  }, 180_000);
});
