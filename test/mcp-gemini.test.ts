// The real Gemini CLI calls ctx through MCP: `ctx mcp install gemini-cli --user` adds mcpServers.ctx
// to its settings.json; `gemini -p` in a directory whose store holds a session that edited
// src/auth.ts starts the server, the mock Gemini API calls mcp_ctx_files, and the function response
// Gemini sends back in its next request is the tool's answer.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { agentMissing, describeAgent } from './agent-clis.js';
import { gemini, sandbox } from './gemini-cli.js';
import { ctx } from './helpers.js';
import { ANSWER_TEXT, touchedStore } from './mcp-touches.js';

const TOOL = 'mcp_ctx_files';
type Content = { parts: { functionResponse?: { name: string; response: { output?: string; error?: string } } }[] };
const responses = (body: Record<string, unknown>) => (body.contents as Content[]).flatMap((c) => c.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse] : [])));

describeAgent('the real gemini CLI (0.61) calls ctx mcp registered by ctx mcp install', agentMissing('gemini'), () => {
  it('gemini -p starts ctx mcp from settings.json; the mcp_ctx_files response names the session and commit that edited src/auth.ts', async () => {
    const sb = await sandbox(() => (_n, body) => (responses(body).length ? [{ text: 'found it' }] : [{ functionCall: { name: TOOL, args: { path: 'src/auth.ts' } } }]));
    const store = touchedStore(sb.proj);
    const settings = join(sb.home, '.gemini', 'settings.json');
    const install = ctx(store, ['mcp', 'install', 'gemini-cli', '--user'], { cwd: sb.proj, env: { CTX_STORE: undefined, HOME: sb.home, GEMINI_CLI_HOME: undefined } });
    expect([install.code, install.stderr.split('\n')[0]]).toEqual([0, `ctx mcp registered in ${settings}`]);

    // gemini -p runs no MCP tool the user has not allowed (--allowed-tools, its policy engine, or trust on the server): this one is allowed by name
    const r = await gemini(sb, ['-p', 'which session touched src/auth.ts?', '--allowed-tools', TOOL]);
    expect([r.code, r.stdout]).toEqual([0, 'found it\n']);
    const turns = sb.mock.turns();
    expect(JSON.stringify(turns[0].tools)).toContain(`"name":"${TOOL}"`);
    const [response] = responses(turns[turns.length - 1]);
    expect(response.name).toBe(TOOL);
    // Gemini CLI sends the tool's text (Claude Code and Codex its structured content), marked as untrusted context
    expect(response.response.output).toBe(`<untrusted_context>\n${ANSWER_TEXT}\n</untrusted_context>`);
  }, 180_000);
});
