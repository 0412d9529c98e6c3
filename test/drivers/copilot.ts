// GitHub Copilot CLI in the resume matrix: `copilot -p` offline against the mock Messages API
// (COPILOT_PROVIDER_TYPE=anthropic), its view tool reading notes.txt.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentBin } from '../agent-clis.js';
import { startMockApi, type MockApi, type RecordedRequest, type Reply } from '../mock-anthropic-api.js';
import { SCRIPT, check, messagesRows, resumeArgs, runCli, sentSince, type DriverHandle, type ResumeDriver } from './driver.js';

const COPILOT = agentBin('copilot');
/** The CLI unpacks its package on first run: one cache for every run (never the real ~/.cache). */
const PKG_CACHE = join(tmpdir(), 'ctx-test-copilot-pkg');

interface Handle extends DriverHandle {
  api: MockApi;
  copilotHome: string;
  run: Record<string, string | undefined>;
}

/** SCRIPT as Messages API replies: view on the session's first request, the answer after its result, else SCRIPT.resumed. */
const script = (project: string) => (req: RecordedRequest): Reply => {
  const msgs = req.body.messages;
  const blocks = (m: { content: unknown } | undefined) => (Array.isArray(m?.content) ? (m.content as { type?: string }[]) : []);
  if (!msgs.some((m) => m.role === 'assistant')) return { tool: { name: 'view', input: { path: join(project, SCRIPT.file) } } };
  return { text: blocks(msgs.at(-1)).some((b) => b.type === 'tool_result') ? SCRIPT.answer : SCRIPT.resumed };
};

const sessions = (home: string) => {
  const dir = join(home, 'session-state');
  return existsSync(dir) ? readdirSync(dir).filter((d) => !d.startsWith('.')) : [];
};

/** Copilot puts its clock before each prompt: its own addition. */
const CLOCK = /^<current_datetime>[^<]*<\/current_datetime>\n\n/;

/**
 * Copilot's resume joins consecutive user messages with a blank line: another runtime's own context
 * block (Codex's environment, Gemini CLI's session context), exported as a user message of its own,
 * reaches the model in one text with the prompt after it. Each is a row, as the source's model saw them.
 */
const CONTEXT_BLOCK = /^(<(environment_context|session_context)>[\s\S]*?<\/\2>\n?)\n\n([\s\S]+)$/;
function apart(text: string): string[] {
  const m = CONTEXT_BLOCK.exec(text);
  return m ? [m[1], m[3]] : [text];
}

export const copilot: ResumeDriver<Handle, RecordedRequest> = {
  runtime: 'copilot',
  cli: 'copilot',
  async start(dir, project) {
    const api = await startMockApi(script(project));
    const home = join(dir, 'home');
    const copilotHome = join(home, '.copilot');
    mkdirSync(copilotHome, { recursive: true });
    const run = {
      PATH: process.env.PATH,
      HOME: home,
      COPILOT_HOME: copilotHome,
      COPILOT_PKG_CACHE_HOME: PKG_CACHE,
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_TYPE: 'anthropic',
      COPILOT_PROVIDER_BASE_URL: api.url,
      COPILOT_PROVIDER_API_KEY: 'dummy',
      COPILOT_MODEL: 'mock-model',
      NO_COLOR: '1',
    };
    return { project, api, copilotHome, run, env: { HOME: home, COPILOT_HOME: copilotHome }, close: () => api.close() };
  },
  async firstSession(h, prompt) {
    const before = new Set(sessions(h.copilotHome));
    check('copilot -p', await runCli(COPILOT, ['-p', prompt, '--allow-all-tools', '-s'], h.project, h.run));
    const made = sessions(h.copilotHome).filter((s) => !before.has(s));
    if (made.length !== 1) throw new Error(`copilot wrote ${made.length} new sessions`);
    return { transcript: join(h.copilotHome, 'session-state', made[0], 'events.jsonl'), session: made[0], rows: this.conversation(h.api.turns().at(-1)!) };
  },
  async resume(h, exported, prompt) {
    const args = resumeArgs(exported, 'copilot');
    if (args.length !== 1 || !args[0].startsWith('--resume=')) throw new Error(`unexpected resume command: ${exported.command}`);
    const before = h.api.turns().length;
    check(exported.command, await runCli(COPILOT, ['-p', prompt, args[0], '--allow-all-tools', '-s'], h.project, h.run));
    return sentSince(h.api.turns(), before, exported.command);
  },
  conversation(req) {
    return messagesRows(req.body.messages, (text) => apart(text.replace(CLOCK, '')));
  },
};
