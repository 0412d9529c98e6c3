// Claude Code in the resume matrix: `claude -p` against the mock Messages API, its Read tool reading notes.txt.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CLAUDE_BIN, claudeEnv, transcripts, type ClaudeEnv } from '../claude-cli.js';
import { startMockApi, type MockApi, type RecordedRequest, type Reply } from '../mock-anthropic-api.js';
import { SCRIPT, check, messagesRows, resumeArgs, runCli, sentSince, type DriverHandle, type ResumeDriver } from './driver.js';

interface Handle extends DriverHandle {
  api: MockApi;
  claude: ClaudeEnv;
}

const TOOLS = ['--allowedTools', 'Read'];

/** SCRIPT as Messages API replies: Read on the session's first request, the answer after its result, else SCRIPT.resumed. */
const script = (project: string) => (req: RecordedRequest): Reply => {
  const msgs = req.body.messages;
  const blocks = (m: { content: unknown } | undefined) => (Array.isArray(m?.content) ? (m.content as { type?: string }[]) : []);
  if (!msgs.some((m) => m.role === 'assistant')) return { tool: { name: 'Read', input: { file_path: join(project, SCRIPT.file) } } };
  return { text: blocks(msgs.at(-1)).some((b) => b.type === 'tool_result') ? SCRIPT.answer : SCRIPT.resumed };
};

export const claudeCode: ResumeDriver<Handle, RecordedRequest> = {
  runtime: 'claude-code',
  cli: 'claude',
  missing() {
    const r = spawnSync(CLAUDE_BIN, ['--version'], { encoding: 'utf8', timeout: 20_000 });
    return r.status === 0 ? null : `${CLAUDE_BIN} --version does not run here (${r.error?.message ?? `exit ${r.status}`})`;
  },
  async start(dir, project) {
    const api = await startMockApi(script(project));
    const c = claudeEnv(dir, api.url);
    return { project, api, claude: c, env: { HOME: c.home, CLAUDE_CONFIG_DIR: c.config }, close: () => api.close() };
  },
  async firstSession(h, prompt) {
    const before = new Set(transcripts(h.claude).map((t) => t.file));
    check('claude -p', await runCli(CLAUDE_BIN, ['-p', prompt, ...TOOLS], h.project, h.claude.env));
    const made = transcripts(h.claude).filter((t) => !before.has(t.file));
    if (made.length !== 1) throw new Error(`claude wrote ${made.length} new transcripts`);
    return { transcript: made[0].file, session: made[0].session, rows: this.conversation(h.api.turns().at(-1)!) };
  },
  async resume(h, exported, prompt) {
    const [id] = resumeArgs(exported, 'claude --resume');
    const before = h.api.turns().length;
    check(exported.command, await runCli(CLAUDE_BIN, ['-p', '--resume', id, prompt, ...TOOLS], h.project, h.claude.env));
    return sentSince(h.api.turns(), before, exported.command);
  },
  conversation(req) {
    // Claude Code's system reminders are its own additions
    return messagesRows(req.body.messages, (text) => (/^\s*<system-reminder>/.test(text) ? [] : [text]));
  },
};
