// The real opencode CLI calls ctx through MCP: `ctx mcp install opencode --user` adds mcp.ctx to its
// opencode.json (kept as it was otherwise); `opencode run` in a directory whose store holds a session
// that edited src/auth.ts starts the server, the mock Chat Completions API calls ctx's files tool, and
// the tool message opencode sends back in its next request is the tool's answer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { agentMissing, describeAgent } from './agent-clis.js';
import { agentRequests, opencode, RUN_TIMEOUT_MS, sandbox } from './opencode-cli.js';
import { ctx } from './helpers.js';
import { messagesOf, text, toolCall } from './mock-chat-api.js';
import { ANSWER_TEXT, touchedStore } from './mcp-touches.js';

const TOOL = 'ctx_files';

describeAgent('the real opencode CLI (1.18) calls ctx mcp registered by ctx mcp install', agentMissing('opencode'), () => {
  it('opencode run starts ctx mcp from opencode.json; the ctx_files result names the session and commit that edited src/auth.ts', async () => {
    const sb = await sandbox((body) => (messagesOf(body).at(-1)?.role === 'tool' ? text('found it') : toolCall('call_ctx', TOOL, { path: 'src/auth.ts' })));
    const store = touchedStore(sb.proj);
    const config = join(sb.home, '.config', 'opencode', 'opencode.json');
    const before = JSON.parse(readFileSync(config, 'utf8'));
    const install = ctx(store, ['mcp', 'install', 'opencode', '--user'], { cwd: sb.proj, env: { CTX_STORE: undefined, HOME: sb.home, XDG_CONFIG_HOME: sb.env.XDG_CONFIG_HOME } });
    expect([install.code, install.stderr.split('\n')[0]]).toEqual([0, `ctx mcp registered in ${config}`]);
    const { mcp, ...rest } = JSON.parse(readFileSync(config, 'utf8'));
    expect(rest).toEqual(before);
    expect(Object.keys(mcp)).toEqual(['ctx']);

    const r = await opencode(sb, ['run', 'which session touched src/auth.ts?']);
    expect(r.code).toBe(0);
    const requests = agentRequests(sb.mock);
    expect((requests[0].body.tools as { function: { name: string } }[]).map((t) => t.function.name)).toContain(TOOL);
    // opencode sends the tool's text
    const tool = requests.flatMap((q) => messagesOf(q.body)).find((m) => m.role === 'tool');
    expect(tool).toEqual({ role: 'tool', tool_call_id: 'call_ctx', content: ANSWER_TEXT });
  }, RUN_TIMEOUT_MS + 60_000);
});
