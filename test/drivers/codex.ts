// Codex in the resume matrix: `codex exec` against the mock Responses API, exec_command `cat notes.txt`.
import { mkdirSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { CODEX_BIN, codexEnv, writeCodexConfig } from '../codex-cli.js';
import { assistantText, functionCall, startMockOpenAI, type MockOpenAI, type MockRequest } from '../mock-openai-api.js';
import { SCRIPT, callText, check, resumeArgs, runCli, type DriverHandle, type ResumeDriver, type Row } from './driver.js';

interface Handle extends DriverHandle {
  mock: MockOpenAI;
  codexHome: string;
  run: Record<string, string | undefined>;
}

type Item = Record<string, unknown>;

/** SCRIPT as Responses API items: the call on the session's first request, the answer after its output, else SCRIPT.resumed. */
function script(body: Record<string, unknown>): Item[] {
  const input = Array.isArray(body.input) ? (body.input as Item[]) : [];
  if (!input.some((i) => i.type === 'function_call' || (i.type === 'message' && i.role === 'assistant'))) return [functionCall('call_notes', 'exec_command', { cmd: `cat ${SCRIPT.file}` })];
  return [assistantText(input.at(-1)?.type === 'function_call_output' ? SCRIPT.answer : SCRIPT.resumed)];
}

function rollouts(codexHome: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => readdirSync(d, { withFileTypes: true }).forEach((e) => (e.isDirectory() ? walk(join(d, e.name)) : out.push(join(d, e.name))));
  if (existsSync(join(codexHome, 'sessions'))) walk(join(codexHome, 'sessions'));
  return out;
}

const exec = (h: Handle, args: string[]) => runCli(CODEX_BIN, ['exec', '--skip-git-repo-check', ...args], h.project, h.run);

export const codex: ResumeDriver<Handle, MockRequest> = {
  runtime: 'codex',
  cli: 'codex',
  async start(dir, project) {
    const mock = await startMockOpenAI(script);
    const [home, codexHome] = ['home', 'codex-home'].map((d) => join(dir, d));
    for (const d of [home, codexHome]) mkdirSync(d, { recursive: true });
    writeCodexConfig(codexHome, mock.baseUrl);
    const run = codexEnv(home, codexHome);
    return { project, mock, codexHome, run, env: { HOME: home, CODEX_HOME: codexHome }, close: () => mock.close() };
  },
  async firstSession(h, prompt) {
    const before = new Set(rollouts(h.codexHome));
    const r = check('codex exec', await exec(h, [prompt]));
    const session = /session id: (\S+)/.exec(r.stderr)?.[1];
    const made = rollouts(h.codexHome).filter((f) => !before.has(f));
    if (session === undefined || made.length !== 1 || !made[0].endsWith(`-${session}.jsonl`)) throw new Error(`codex exec: session ${session}, new rollouts ${made.join(' ')}`);
    return { transcript: made[0], session, rows: this.conversation(h.mock.requests.at(-1)!) };
  },
  async resume(h, exported, prompt) {
    const [id] = resumeArgs(exported, 'codex resume');
    const before = h.mock.requests.length;
    check(exported.command, await exec(h, ['resume', id, prompt]));
    const sent = h.mock.requests[before];
    if (sent === undefined) throw new Error(`${exported.command}: the mock received no request`);
    return sent;
  },
  conversation(req) {
    const rows: Row[] = [];
    for (const i of (req.body.input as Item[] | undefined) ?? []) {
      if (i.type === 'message' && (i.role === 'user' || i.role === 'assistant')) {
        const parts = typeof i.content === 'string' ? [{ text: i.content }] : (i.content as { text?: string }[]);
        // Codex's environment context is its own addition (AGENTS.md is the user's: it stays)
        for (const p of parts) if (typeof p.text === 'string' && !/^\s*<environment_context>/.test(p.text)) rows.push({ role: i.role, kind: 'text', text: p.text });
      } else if (i.type === 'function_call') rows.push({ role: 'assistant', kind: 'call', text: callText(String(i.name), i.arguments), id: String(i.call_id) });
      else if (i.type === 'function_call_output') {
        const text = typeof i.output === 'string' ? i.output : (i.output as { text?: string }[]).map((x) => x.text ?? '').join('');
        rows.push({ role: 'user', kind: 'result', text, id: String(i.call_id) });
      }
    }
    return rows;
  },
};
