// pi in the resume matrix: `pi -p` against the mock Messages API (pi's provider `mock` in
// ~/.pi/agent/models.json, `"api":"anthropic-messages"`), its read tool reading notes.txt.
import { mkdirSync, readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin } from '../agent-clis.js';
import { startMockApi, type MockApi, type RecordedRequest, type Reply } from '../mock-anthropic-api.js';
import { SCRIPT, check, messagesRows, resumeArgs, runCli, sentSince, type DriverHandle, type ResumeDriver } from './driver.js';

const PI = agentBin('pi');

interface Handle extends DriverHandle {
  api: MockApi;
  home: string;
  runEnv: Record<string, string | undefined>;
}

/** SCRIPT as Messages API replies: read on the session's first request, the answer after its result, else SCRIPT.resumed. */
const script = (req: RecordedRequest): Reply => {
  const msgs = req.body.messages;
  const blocks = (m: { content: unknown } | undefined) => (Array.isArray(m?.content) ? (m.content as { type?: string }[]) : []);
  if (!msgs.some((m) => m.role === 'assistant')) return { tool: { name: 'read', input: { path: SCRIPT.file } } };
  return { text: blocks(msgs.at(-1)).some((b) => b.type === 'tool_result') ? SCRIPT.answer : SCRIPT.resumed };
};

const MODEL = ['--provider', 'mock', '--model', 'mock-model'];

/** The project's session files pi wrote. */
function sessions(h: Handle): string[] {
  const dir = join(h.home, '.pi', 'agent', 'sessions', `--${h.project.replace(/^\//, '').replace(/[/:]/g, '-')}--`);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f)) : [];
}

export const pi: ResumeDriver<Handle, RecordedRequest> = {
  runtime: 'pi',
  cli: 'pi',
  async start(dir, project) {
    const api = await startMockApi(script);
    const home = join(dir, 'home');
    mkdirSync(join(home, '.pi', 'agent'), { recursive: true });
    const models = { providers: { mock: { baseUrl: api.url, api: 'anthropic-messages', apiKey: 'dummy', models: [{ id: 'mock-model', contextWindow: 128000 }] } } };
    writeFileSync(join(home, '.pi', 'agent', 'models.json'), JSON.stringify(models));
    const runEnv = { PATH: process.env.PATH, HOME: home, PI_OFFLINE: '1', NO_COLOR: '1' };
    return { project, api, home, runEnv, env: { HOME: home }, close: () => api.close() };
  },
  async firstSession(h, prompt) {
    const before = new Set(sessions(h));
    check('pi -p', await runCli(PI, ['-p', ...MODEL, prompt], h.project, h.runEnv));
    const made = sessions(h).filter((f) => !before.has(f));
    if (made.length !== 1) throw new Error(`pi wrote ${made.length} new sessions`);
    const session = JSON.parse(readFileSync(made[0], 'utf8').split('\n')[0]).id as string;
    return { transcript: made[0], session, rows: this.conversation(h.api.turns().at(-1)!) };
  },
  async resume(h, exported, prompt) {
    const [id] = resumeArgs(exported, 'pi --session');
    const before = h.api.turns().length;
    check(exported.command, await runCli(PI, ['-p', ...MODEL, '--session', id, prompt], h.project, h.runEnv));
    return sentSince(h.api.turns(), before, exported.command);
  },
  conversation(req) {
    return messagesRows(req.body.messages);
  },
};
