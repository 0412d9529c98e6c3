// Gemini CLI in the resume matrix: `gemini -p` against the mock Gemini API, read_file on notes.txt.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin } from '../agent-clis.js';
import { geminiEnv, writeGeminiSettings } from '../gemini-cli.js';
import { startMockGemini, type MockGemini, type Turn } from '../mock-gemini-api.js';
import { SCRIPT, callText, check, resumeArgs, runCli, type DriverHandle, type ResumeDriver, type Row } from './driver.js';

const GEMINI = agentBin('gemini');

interface Handle extends DriverHandle {
  mock: MockGemini;
  home: string;
  run: Record<string, string | undefined>;
}

type Part = Record<string, any>;
type Content = { role: string; parts: Part[] };

/** SCRIPT as Gemini parts: read_file on the session's first request, the answer after its response, else SCRIPT.resumed. */
const script = (project: string) => (_n: number, body: Record<string, unknown>): Turn => {
  const contents = (body.contents as Content[] | undefined) ?? [];
  if (!contents.some((c) => c.role === 'model')) return [{ functionCall: { name: 'read_file', args: { file_path: join(project, SCRIPT.file) } } }];
  return [{ text: contents.at(-1)?.parts.some((p) => p.functionResponse) ? SCRIPT.answer : SCRIPT.resumed }];
};

/** Every session file Gemini CLI wrote, any project. */
function sessions(home: string): string[] {
  const tmp = join(home, '.gemini', 'tmp');
  if (!existsSync(tmp)) return [];
  return readdirSync(tmp).flatMap((p) => {
    const chats = join(tmp, p, 'chats');
    return existsSync(chats) ? readdirSync(chats).filter((f) => f.endsWith('.jsonl')).map((f) => join(chats, f)) : [];
  });
}

export const geminiCli: ResumeDriver<Handle, Record<string, unknown>> = {
  runtime: 'gemini-cli',
  cli: 'gemini',
  async start(dir, project) {
    const mock = await startMockGemini(script(project));
    const home = join(dir, 'home');
    writeGeminiSettings(home);
    const run = geminiEnv(home, mock.url);
    return { project, mock, home, run, env: { HOME: home }, close: () => mock.close() };
  },
  async firstSession(h, prompt) {
    const before = new Set(sessions(h.home));
    check('gemini -p', await runCli(GEMINI, ['-p', prompt], h.project, h.run));
    const made = sessions(h.home).filter((f) => !before.has(f));
    if (made.length !== 1) throw new Error(`gemini wrote ${made.length} new sessions`);
    return { transcript: made[0], session: JSON.parse(readFileSync(made[0], 'utf8').split('\n')[0]).sessionId, rows: this.conversation(h.mock.turns().at(-1)!) };
  },
  async resume(h, exported, prompt) {
    const [id] = resumeArgs(exported, 'gemini --resume');
    const before = h.mock.turns().length;
    check(exported.command, await runCli(GEMINI, ['--resume', id, '-p', prompt], h.project, h.run));
    const sent = h.mock.turns()[before];
    if (sent === undefined) throw new Error(`${exported.command}: the mock received no request`);
    return sent;
  },
  conversation(body) {
    const rows: Row[] = [];
    // Gemini CLI repeats a call's response on every resume of its own files: each once
    const answered = new Set<string>();
    for (const c of (body.contents as Content[] | undefined) ?? []) {
      const role = c.role === 'model' ? 'assistant' : 'user';
      for (const p of c.parts) {
        if (typeof p.text === 'string' && !p.thought && !p.text.startsWith('<session_context>')) rows.push({ role, kind: 'text', text: p.text });
        else if (p.functionCall) rows.push({ role, kind: 'call', text: callText(p.functionCall.name, p.functionCall.args), id: p.functionCall.id });
        else if (p.functionResponse) {
          const r = p.functionResponse;
          if (r.id !== undefined && answered.has(r.id)) continue;
          answered.add(r.id);
          rows.push({ role, kind: 'result', text: typeof r.response?.output === 'string' ? r.response.output : JSON.stringify(r.response), id: r.id });
        }
      }
    }
    return rows;
  },
};
