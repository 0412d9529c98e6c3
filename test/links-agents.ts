// Claude Code, Codex and Gemini CLI as scripted coding agents for the links tests: each runs for real
// in a temp HOME against its mock model API, which answers with the steps the test gives (write a
// file, edit it, run a shell command) through that runtime's own tools, then a closing text.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentBin, runCli, type CliRun } from './agent-clis.js';
import { CLAUDE_BIN, claudeEnv } from './claude-cli.js';
import { CODEX_BIN, codexEnv, writeCodexConfig } from './codex-cli.js';
import { geminiEnv, writeGeminiSettings } from './gemini-cli.js';
import { startMockApi, type RecordedRequest, type Reply } from './mock-anthropic-api.js';
import { startMockGemini, type Turn } from './mock-gemini-api.js';
import { assistantText, functionCall, startMockOpenAI, type OutputItem } from './mock-openai-api.js';

/** One thing the model asks its agent to do; `file` is relative to the agent's working directory. */
export type Step = { write: string; content: string } | { edit: string; old: string; new: string } | { shell: string };

export const DONE_TEXT = 'All done.';
const RUN_TIMEOUT_MS = 180_000;

export type AgentRun = CliRun;

/** One agent sandbox: its own HOME, config and mock API; `run` starts a new session in `cwd`. */
export interface Agent {
  runtime: 'claude-code' | 'codex' | 'gemini-cli';
  /** the env `ctx hooks install <runtime>` needs to find the runtime's config */
  env: Record<string, string>;
  /** a turn of a new session, or of session `resume` */
  run(cwd: string, prompt: string, steps: Step[], resume?: string): Promise<AgentRun>;
  /** the session files the runtime wrote, with their session ids */
  sessions(): { id: string; file: string }[];
  /** the store branch a session is captured on */
  branch(session: string): string;
  /** the tool calls the model made, by tool name, in order */
  toolNames(): string[];
  close(): Promise<void>;
}

export interface AgentKind {
  runtime: Agent['runtime'];
  bin: string;
  /** why this CLI cannot run here, or null */
  missing: string | null;
  start(dir: string): Promise<Agent>;
}

function missing(bin: string): string | null {
  if (!existsSync(bin)) return `${bin} not found: npm install fetches the pinned CLI`;
  const home = mkdtempSync(join(tmpdir(), 'ctx-version-'));
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH, HOME: home } });
  rmSync(home, { recursive: true, force: true });
  return r.status === 0 ? null : `${bin} --version does not run here (${r.error?.message ?? `exit ${r.status}`})`;
}

const walk = (d: string): string[] => (existsSync(d) ? readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)])) : []);

/** The steps of the run in progress, keyed by its prompt: a mock serves one agent, but two runs may overlap. */
class Scripts {
  private byPrompt = new Map<string, Step[]>();
  constructor(private readonly result: RegExp) {}
  set(prompt: string, steps: Step[]) {
    this.byPrompt.set(prompt, steps);
  }
  /**
   * The prompt of the turn that `text` (the request's conversation, serialized) is in: the latest one
   * it holds; and the step after as many tool results as follow that prompt, or null when all are done.
   */
  next(text: string): { prompt: string; step: Step | null } | null {
    const [prompt, at] = [...this.byPrompt.keys()].map((p) => [p, text.lastIndexOf(p)] as const).reduce((a, b) => (b[1] > a[1] ? b : a), ['', -1] as const);
    if (at < 0) return null;
    const steps = this.byPrompt.get(prompt)!;
    const done = text.slice(at).match(new RegExp(this.result.source, 'g'))?.length ?? 0;
    return { prompt, step: done < steps.length ? steps[done] : null };
  }
}

const claude: AgentKind = {
  runtime: 'claude-code',
  bin: CLAUDE_BIN,
  missing: missing(CLAUDE_BIN),
  async start(dir) {
    const scripts = new Scripts(/"type":"tool_result"/);
    const tools: string[] = [];
    const cwdOf = new Map<string, string>();
    const answer = (req: RecordedRequest): Reply => {
      const turn = scripts.next(JSON.stringify(req.body.messages));
      if (!turn?.step) return { text: DONE_TEXT };
      const { prompt, step } = turn;
      const cwd = cwdOf.get(prompt)!;
      const tool =
        'write' in step
          ? { name: 'Write', input: { file_path: join(cwd, step.write), content: step.content } }
          : 'edit' in step
            ? { name: 'Edit', input: { file_path: join(cwd, step.edit), old_string: step.old, new_string: step.new } }
            : { name: 'Bash', input: { command: step.shell, description: 'run a command' } };
      tools.push(tool.name);
      return { tool };
    };
    const api = await startMockApi(answer);
    const c = claudeEnv(dir, api.url);
    return {
      runtime: 'claude-code',
      env: { HOME: c.home, CLAUDE_CONFIG_DIR: c.config },
      run(cwd, prompt, steps, resume) {
        scripts.set(prompt, steps);
        cwdOf.set(prompt, cwd);
        return runCli(CLAUDE_BIN, ['-p', prompt, ...(resume ? ['--resume', resume] : []), '--allowedTools', 'Write,Edit,Bash', '--permission-mode', 'acceptEdits'], cwd, c.env, RUN_TIMEOUT_MS);
      },
      sessions: () => walk(join(c.config, 'projects')).filter((f) => f.endsWith('.jsonl')).map((file) => ({ id: file.split('/').pop()!.slice(0, -6), file })),
      branch: (s) => `claude/${s}`,
      toolNames: () => tools,
      close: () => api.close(),
    };
  },
};

const codex: AgentKind = {
  runtime: 'codex',
  bin: CODEX_BIN,
  missing: missing(CODEX_BIN),
  async start(dir) {
    const scripts = new Scripts(/"type":"(function_call_output|custom_tool_call_output)"/);
    const tools: string[] = [];
    let n = 0;
    const patch = (step: { write: string; content: string } | { edit: string; old: string; new: string }) =>
      'write' in step
        ? `*** Begin Patch\n*** Add File: ${step.write}\n${step.content.replace(/\n$/, '').split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch\n`
        : `*** Begin Patch\n*** Update File: ${step.edit}\n@@\n${step.old.replace(/\n$/, '').split('\n').map((l) => `-${l}`).join('\n')}\n${step.new.replace(/\n$/, '').split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch\n`;
    const script = (body: Record<string, unknown>): OutputItem[] => {
      const step = scripts.next(JSON.stringify(body.input ?? []))?.step;
      if (!step) return [assistantText(DONE_TEXT)];
      const id = `call_${++n}`;
      if ('shell' in step) {
        tools.push('exec_command');
        return [functionCall(id, 'exec_command', { cmd: step.shell })];
      }
      tools.push('apply_patch');
      const offered = JSON.stringify(body.tools ?? []);
      // Codex offers apply_patch as a freeform (custom) tool to the models that take one, else as a function
      return /"type":"custom"[^}]*"name":"apply_patch"|"name":"apply_patch"[^}]*"type":"custom"/.test(offered)
        ? [{ type: 'custom_tool_call', id: `ctc_${id}`, call_id: id, name: 'apply_patch', input: patch(step) }]
        : [functionCall(id, 'apply_patch', { input: patch(step) })];
    };
    const mock = await startMockOpenAI((body) => script(body));
    const [home, codexHome] = ['home', 'codex-home'].map((d) => join(dir, d));
    for (const d of [home, codexHome]) mkdirSync(d, { recursive: true });
    // a model of Codex's own catalog: only those are offered apply_patch (as a freeform tool); the mock answers for it
    writeCodexConfig(codexHome, mock.baseUrl, 'model = "gpt-5.5"\n');
    const env = codexEnv(home, codexHome);
    return {
      runtime: 'codex',
      env: { HOME: home, CODEX_HOME: codexHome },
      run(cwd, prompt, steps, resume) {
        scripts.set(prompt, steps);
        return runCli(CODEX_BIN, ['exec', ...(resume ? ['resume', resume] : []), prompt], cwd, env, RUN_TIMEOUT_MS);
      },
      sessions: () => walk(join(codexHome, 'sessions')).filter((f) => f.endsWith('.jsonl')).map((file) => ({ id: /([0-9a-f-]{36})\.jsonl$/.exec(file)![1], file })),
      branch: (s) => `codex/${s}`,
      toolNames: () => tools,
      close: () => mock.close(),
    };
  },
};

export const GEMINI_BIN = agentBin('gemini');

const gemini: AgentKind = {
  runtime: 'gemini-cli',
  bin: GEMINI_BIN,
  missing: missing(GEMINI_BIN),
  async start(dir) {
    const scripts = new Scripts(/"functionResponse"/);
    const tools: string[] = [];
    const cwdOf = new Map<string, string>();
    const script = (_n: number, body: Record<string, unknown>): Turn => {
      const turn = scripts.next(JSON.stringify(body.contents ?? []));
      if (!turn?.step) return [{ text: DONE_TEXT }];
      const { prompt, step } = turn;
      const cwd = cwdOf.get(prompt)!;
      const call =
        'write' in step
          ? { name: 'write_file', args: { file_path: join(cwd, step.write), content: step.content } }
          : 'edit' in step
            ? { name: 'replace', args: { file_path: join(cwd, step.edit), old_string: step.old, new_string: step.new, instruction: 'edit the file' } }
            : { name: 'run_shell_command', args: { command: step.shell, description: 'run a command' } };
      tools.push(call.name);
      return [{ functionCall: call }];
    };
    const mock = await startMockGemini(script);
    const home = join(dir, 'home');
    writeGeminiSettings(home);
    const env = geminiEnv(home, mock.url);
    return {
      runtime: 'gemini-cli',
      env: { HOME: home },
      run(cwd, prompt, steps, resume) {
        scripts.set(prompt, steps);
        cwdOf.set(prompt, cwd);
        return runCli(GEMINI_BIN, [...(resume ? ['--resume', resume] : []), '-p', prompt, '--approval-mode', 'yolo'], cwd, env, RUN_TIMEOUT_MS);
      },
      sessions: () => walk(join(home, '.gemini', 'tmp')).filter((f) => /\/chats\/session-.*\.jsonl$/.test(f)).map((file) => ({ id: sessionIdOf(file), file })),
      branch: (s) => `gemini/${s}`,
      toolNames: () => tools,
      close: () => mock.close(),
    };
  },
};

function sessionIdOf(file: string): string {
  return JSON.parse(readFileSync(file, 'utf8').split('\n')[0]).sessionId;
}

export const AGENTS: AgentKind[] = [claude, codex, gemini];
