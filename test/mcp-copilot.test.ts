// The real Copilot CLI calls ctx through MCP: `ctx mcp install copilot --user` adds mcpServers.ctx to
// its mcp-config.json; `copilot -p` in a directory whose store holds a session that edited
// src/auth.ts starts the server, the mock Messages API calls ctx's files tool, and the tool result
// Copilot sends back in its next request is the tool's answer.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { agentMissing, describeAgent } from './agent-clis.js';
import { copilot, copilotBox } from './copilot-cli.js';
import { ctx } from './helpers.js';
import { startMockApi, type MockApi, type RecordedRequest } from './mock-anthropic-api.js';
import { ANSWER, ANSWER_TEXT, touchedStore } from './mcp-touches.js';

const TOOL = 'ctx-files';
type Block = { type?: string; tool_use_id?: string; content?: unknown };
const lastBlocks = (req: RecordedRequest): Block[] => {
  const last = req.body.messages[req.body.messages.length - 1];
  return Array.isArray(last?.content) ? (last.content as Block[]) : [];
};

describeAgent('the real copilot CLI (1.0.102) calls ctx mcp registered by ctx mcp install', agentMissing('copilot'), () => {
  let api: MockApi;
  beforeAll(async () => {
    api = await startMockApi((req) => {
      return lastBlocks(req).some((b) => b.type === 'tool_result') ? { text: 'found it' } : { tool: { name: TOOL, input: { path: 'src/auth.ts' } } };
    });
  });
  afterAll(() => api?.close());

  it('copilot -p starts ctx mcp from mcp-config.json; the files tool result names the session and commit that edited src/auth.ts', async () => {
    const box = copilotBox(api);
    const store = touchedStore(box.proj);
    const install = ctx(store, ['mcp', 'install', 'copilot', '--user'], { cwd: box.proj, env: { CTX_STORE: undefined, HOME: box.home, COPILOT_HOME: box.copilotHome } });
    expect([install.code, install.stderr.split('\n')[0]]).toEqual([0, `ctx mcp registered in ${join(box.copilotHome, 'mcp-config.json')}`]);

    const r = await copilot(box, ['-p', 'which session touched src/auth.ts?']);
    const turns = api.turns();
    const call = turns.findIndex((t) => lastBlocks(t).some((b) => b.type === 'tool_result'));
    const result = lastBlocks(turns[call]).find((b) => b.type === 'tool_result')!;
    expect([r.code, r.stdout]).toEqual([0, 'found it\n\n']);
    expect(JSON.stringify(turns[0].body.tools)).toContain(`"name":"${TOOL}"`);
    expect(result.tool_use_id).toBe('toolu_mock_1');
    // Copilot CLI sends the tool's text, a blank line, then its structured content as JSON
    expect(result.content).toBe(`${ANSWER_TEXT}\n\n${JSON.stringify(ANSWER)}`);
  }, 240_000);
});
