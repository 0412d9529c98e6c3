// The real `claude` CLI (.ci/agents, pinned there; test/agent-clis.ts) run non-interactively in
// a temp HOME and config dir against the mock Messages API: what the Claude Code tests drive.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { agentBin, agentMissing, describeAgent } from './agent-clis.js';
import type { RecordedRequest, Reply } from './mock-anthropic-api.js';

export const CLAUDE_BIN = agentBin('claude');
/** Why the real claude cannot run here, or null: the binary is missing, or it does not run on this platform. */
function missing(): string | null {
  const absent = agentMissing('claude');
  if (absent !== null) return absent;
  const r = spawnSync(CLAUDE_BIN, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  return r.status === 0 ? null : `${CLAUDE_BIN} --version does not run here (${r.error?.message ?? `exit ${r.status}: ${r.stderr.trim()}`})`;
}
const MISSING = missing();

/** `describe` for suites that run the real claude; skipped with the reason when it cannot run. */
export function describeClaude(name: string, fn: () => void): void {
  describeAgent(name, MISSING, fn);
}

export interface ClaudeEnv {
  home: string;
  config: string;
  env: NodeJS.ProcessEnv;
}

/** A temp HOME and CLAUDE_CONFIG_DIR; the API is the mock; no telemetry, update check or other traffic. */
export function claudeEnv(dir: string, apiUrl: string): ClaudeEnv {
  const home = join(dir, 'home');
  const config = join(dir, 'claude-config');
  mkdirSync(home, { recursive: true });
  mkdirSync(config, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: config,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CTX_STORE: undefined,
  };
  return { home, config, env };
}

export interface ClaudeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `claude ARGS` in `cwd`, stdin closed, killed after `timeoutMs`. */
export function runClaude(c: ClaudeEnv, cwd: string, args: string[], timeoutMs = 60_000): Promise<ClaudeRun> {
  return new Promise((done) => {
    const p = spawn(CLAUDE_BIN, args, { cwd, env: c.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b) => (stdout += b));
    p.stderr.on('data', (b) => (stderr += b));
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** The transcripts Claude Code wrote under `<config>/projects/<dir>/`: `{ dir, file }` per session file. */
export function transcripts(c: ClaudeEnv): { dir: string; file: string; session: string }[] {
  const projects = join(c.config, 'projects');
  if (!existsSync(projects)) return [];
  return readdirSync(projects).flatMap((dir) =>
    readdirSync(join(projects, dir))
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => ({ dir, file: join(projects, dir, f), session: f.slice(0, -'.jsonl'.length) })),
  );
}

/** A tool call first (Bash `echo <word>`), the text `answer <n>` once its result is there; a /compact gets a summary. */
export function toolThenText(word = 'tool-output'): (req: RecordedRequest) => Reply {
  let n = 0;
  return (req) => {
    const last = req.body.messages[req.body.messages.length - 1];
    const blocks = Array.isArray(last?.content) ? (last.content as { type?: string; text?: string }[]) : [];
    if (blocks.some((b) => b.type === 'text' && /<summary>/.test(b.text ?? ''))) return { text: '<summary>The user ran a command; it printed its word.</summary>' };
    if (blocks.some((b) => b.type === 'tool_result')) return { text: `answer ${++n}` };
    return { tool: { name: 'Bash', input: { command: `echo ${word}`, description: 'print a word' } } };
  };
}

/**
 * The conversation a request carries, as the model sees it: user and assistant messages, without
 * the system-reminder blocks and system-role messages Claude Code adds; tool ids kept.
 */
export function conversation(req: RecordedRequest): { role: string; content: unknown[] }[] {
  const out: { role: string; content: unknown[] }[] = [];
  for (const m of req.body.messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const blocks = (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Record<string, unknown>[]))
      .filter((b) => !(b.type === 'text' && typeof b.text === 'string' && /^\s*<system-reminder>/.test(b.text)))
      .map((b) => {
        if (b.type === 'text') return { type: 'text', text: b.text };
        if (b.type === 'tool_use') return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
        if (b.type === 'tool_result') return { type: 'tool_result', tool_use_id: b.tool_use_id, content: typeof b.content === 'string' ? b.content : (b.content as { text?: string }[]).map((x) => x.text).join('') };
        return { type: b.type };
      });
    if (blocks.length) out.push({ role: m.role, content: blocks });
  }
  return out;
}

export const readText = (file: string) => readFileSync(file, 'utf8');
