// The real Claude Code CLI calls ctx through MCP: `ctx mcp install claude-code` writes .mcp.json in
// a project whose store holds a session that edited src/auth.ts; `claude -p` starts the server from
// there, the mock model asks for mcp__ctx__files, and the tool result Claude Code sends back in its
// next request names that session and its commit.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claudeEnv, describeClaude, runClaude } from './claude-cli.js';
import { ctx, tempDir } from './helpers.js';
import { startMockApi, type MockApi, type RecordedRequest } from './mock-anthropic-api.js';
import { ANSWER, touchedStore } from './mcp-touches.js';

const TOOL = 'mcp__ctx__files';

type Block = { type?: string; tool_use_id?: string; content?: unknown };
const lastBlocks = (req: RecordedRequest): Block[] => {
  const last = req.body.messages[req.body.messages.length - 1];
  return Array.isArray(last?.content) ? (last.content as Block[]) : [];
};

let api: MockApi;
beforeAll(async () => {
  // first a call of ctx's tool, then text once its result is there
  api = await startMockApi((req) => (lastBlocks(req).some((b) => b.type === 'tool_result') ? { text: 'found it' } : { tool: { name: TOOL, input: { path: 'src/auth.ts' } } }));
});
afterAll(() => api?.close());

describeClaude('the real claude CLI (2.1.332) calls ctx mcp registered by ctx mcp install', () => {
  it('claude -p in the project starts ctx mcp from .mcp.json; the files tool result names the session and commit that edited src/auth.ts', async () => {
    const root = tempDir();
    const dir = join(root, 'project');
    mkdirSync(join(dir, '.git'), { recursive: true });
    const store = touchedStore(dir);
    const c = claudeEnv(root, api.url);
    // no CTX_STORE: the server finds the project's .ctx from the directory claude starts it in
    expect(ctx(store, ['mcp', 'install', 'claude-code'], { cwd: dir, env: { CTX_STORE: undefined, HOME: c.home, CLAUDE_CONFIG_DIR: c.config } }).code).toBe(0);

    // Claude Code connects MCP servers in the background by default; waiting for them makes the first request's tool list certain
    const r = await runClaude({ ...c, env: { ...c.env, MCP_CONNECTION_NONBLOCKING: 'false' } }, dir, ['-p', 'which session touched src/auth.ts?', '--allowedTools', TOOL], 120_000);
    expect(r.stderr).toBe('');
    expect([r.code, r.stdout]).toEqual([0, 'found it\n']);

    const turns = api.turns();
    const call = turns.findIndex((t) => lastBlocks(t).some((b) => b.type === 'tool_result'));
    expect(call).toBeGreaterThan(0);
    // the tool was offered (deferred behind ToolSearch or listed): Claude Code got it from ctx mcp
    expect(JSON.stringify(turns[0].body)).toContain(TOOL);
    const result = lastBlocks(turns[call]).find((b) => b.type === 'tool_result')!;
    expect(result.tool_use_id).toBe('toolu_mock_1');
    expect(JSON.parse(result.content as string)).toEqual(ANSWER);
  }, 180_000);
});
