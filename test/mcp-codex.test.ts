// The real Codex CLI calls ctx through MCP: `ctx mcp install codex --user` appends [mcp_servers.ctx]
// to its config.toml; `codex exec` in a directory whose store holds a session that edited src/auth.ts
// starts the server, the mock Responses API calls the tool `files` of the namespace `mcp__ctx`, and
// the output Codex sends back in its next request is the tool's answer.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAgent } from './agent-clis.js';
import { CODEX_MISSING, codexSandbox } from './codex-cli.js';
import { ctx } from './helpers.js';
import { assistantText, functionCall, startMockOpenAI, type MockOpenAI } from './mock-openai-api.js';
import { ANSWER, touchedStore } from './mcp-touches.js';

/** Codex lists a server's tools once it has started (in the background): until then the model waits with a short command, at most this many times. */
const WAITS = 40;

describeAgent('the real codex CLI (0.171) calls ctx mcp registered by ctx mcp install', CODEX_MISSING, () => {
  let mock: MockOpenAI;
  beforeAll(async () => {
    let waits = 0;
    mock = await startMockOpenAI((body) => {
      const input = body.input as { type?: string; call_id?: string }[];
      const last = input[input.length - 1];
      if (last?.type === 'function_call_output' && last.call_id === 'call_ctx') return [assistantText('found it')];
      const listed = (body.tools as { name?: string }[]).some((t) => t.name === 'mcp__ctx');
      if (!listed && waits < WAITS) return [functionCall(`wait_${waits++}`, 'exec_command', { cmd: 'sleep 0.2' })];
      return [{ ...functionCall('call_ctx', 'files', { path: 'src/auth.ts' }), namespace: 'mcp__ctx' }];
    });
  });
  afterAll(() => mock.close());

  it('codex exec starts ctx mcp from config.toml; the files output names the session and commit that edited src/auth.ts', async () => {
    const box = codexSandbox(mock);
    const store = touchedStore(box.cwd);
    const install = ctx(store, ['mcp', 'install', 'codex', '--user'], { cwd: box.cwd, env: { CTX_STORE: undefined, HOME: box.home, CODEX_HOME: box.codexHome } });
    expect([install.code, install.stderr.split('\n')[0]]).toEqual([0, `ctx mcp registered in ${join(box.codexHome, 'config.toml')}`]);

    const r = await box.run(['which session touched src/auth.ts?']);
    expect([r.code, r.stdout]).toEqual([0, 'found it\n']);
    const outputs = mock.requests.flatMap((q) => (q.body.input as { type?: string; call_id?: string; output?: unknown }[]).filter((i) => i.type === 'function_call_output' && i.call_id === 'call_ctx'));
    expect(outputs.length).toBeGreaterThan(0);
    // Codex sends the call's wall time, then the tool's text
    const output = outputs[0].output as string;
    const head = /^Wall time: \d+(\.\d+)? seconds\nOutput:\n/.exec(output);
    expect(head).not.toBeNull();
    expect(JSON.parse(output.slice(head![0].length))).toEqual(ANSWER);
  }, 180_000);
});
