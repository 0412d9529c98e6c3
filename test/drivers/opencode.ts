// opencode in the resume matrix: `opencode run` against the mock Chat Completions API, `read` on
// notes.txt. Its sessions live in SQLite: the source session is what `opencode export <id>` prints.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin } from '../agent-clis.js';
import { messagesOf, startMockChat, text, toolCall, type MockChat } from '../mock-chat-api.js';
import { agentRequests, isTitleRequest, newSession, sandboxConfig } from '../opencode-cli.js';
import { SCRIPT, callText, check, resumeArgs, runCli, type DriverHandle, type ResumeDriver, type Row } from './driver.js';

const OPENCODE = agentBin('opencode');

interface Handle extends DriverHandle {
  mock: MockChat;
  dir: string;
  run: Record<string, string>;
}

type Message = Record<string, any>;

/** `opencode run` quotes a message word holding a space: the prompt goes as its words. */
const words = (prompt: string) => prompt.split(' ');

export const opencode: ResumeDriver<Handle, Record<string, unknown>> = {
  runtime: 'opencode',
  cli: 'opencode',
  async start(dir, project) {
    const mock = await startMockChat((body) => {
      if (isTitleRequest(body)) return text('A title');
      const msgs = messagesOf(body);
      if (!msgs.some((m) => m.role === 'assistant')) return toolCall('call_read_1', 'read', { filePath: join(project, SCRIPT.file) });
      return text(msgs.at(-1)?.role === 'tool' ? SCRIPT.answer : SCRIPT.resumed);
    });
    const run = sandboxConfig(join(dir, 'home'), project, mock.baseUrl);
    return { project, mock, dir, run, env: { HOME: run.HOME, XDG_CONFIG_HOME: run.XDG_CONFIG_HOME }, close: () => mock.close() };
  },
  async firstSession(h, prompt) {
    const session = await newSession({ proj: h.project, env: h.run }, ...words(prompt));
    const exported = check('opencode export', await runCli(OPENCODE, ['export', session], h.project, h.run));
    const transcript = join(h.dir, `${session}.json`);
    writeFileSync(transcript, exported.stdout);
    return { transcript, session, rows: this.conversation(agentRequests(h.mock).at(-1)!.body) };
  },
  async resume(h, exported, prompt) {
    const [file, and, cmd, sub, flag, id] = resumeArgs(exported, 'opencode import');
    if ([and, cmd, sub, flag].join(' ') !== '&& opencode run -s' || !id) throw new Error(`unexpected resume command: ${exported.command}`);
    check('opencode import', await runCli(OPENCODE, ['import', file], h.project, h.run));
    const before = h.mock.requests.length;
    check(exported.command, await runCli(OPENCODE, ['run', '-s', id, ...words(prompt)], h.project, h.run));
    const sent = h.mock.requests.slice(before).find((r) => !isTitleRequest(r.body));
    if (sent === undefined) throw new Error(`${exported.command}: the mock received no request`);
    return sent.body;
  },
  conversation(body) {
    const rows: Row[] = [];
    const texts = (c: unknown): string[] => (typeof c === 'string' ? [c] : Array.isArray(c) ? c.flatMap((p: Message) => (p?.type === 'text' && typeof p.text === 'string' ? [p.text] : [])) : []);
    for (const m of messagesOf(body) as Message[]) {
      if (m.role === 'system') continue;
      if (m.role === 'tool') {
        rows.push({ role: 'user', kind: 'result', text: texts(m.content).join('\n'), id: m.tool_call_id });
        continue;
      }
      const role = m.role === 'assistant' ? 'assistant' : 'user';
      for (const t of texts(m.content)) if (t !== '') rows.push({ role, kind: 'text', text: t });
      for (const c of m.tool_calls ?? []) rows.push({ role, kind: 'call', text: callText(c.function.name, c.function.arguments), id: c.id });
    }
    return rows;
  },
};
