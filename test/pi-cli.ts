// The real `pi` CLI (pi 0.73.1, pinned in .ci/agents) run non-interactively (`pi -p`) against the mock
// Anthropic Messages API on 127.0.0.1, in a temp HOME whose ~/.pi/agent/models.json names the mock as
// provider `mock`: what the pi suites share.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { tempDir } from './helpers.js';
import { agentBin, runCli } from './agent-clis.js';
import { startMockApi, type MockApi, type RecordedRequest, type Reply } from './mock-anthropic-api.js';

export const PI = agentBin('pi');
const RUN_TIMEOUT_MS = 90_000;

export interface PiSandbox {
  root: string;
  home: string;
  proj: string;
  mock: MockApi;
}

const open: MockApi[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** The text of a request's last message. */
function lastText(req: RecordedRequest): { role: string; text: string; tool: boolean } {
  const m = req.body.messages.at(-1)!;
  const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as { type: string; text?: string }[]);
  return { role: m.role, text: blocks.map((b) => b.text ?? '').join(''), tool: blocks.some((b) => b.type === 'tool_result') };
}

/** A prompt that says "read" gets a read of notes.txt, then (the result back) `read: <n> results`; any other `answer: <prompt>`. */
export const readOrAnswer = (req: RecordedRequest): Reply => {
  const last = lastText(req);
  if (last.tool) return { text: `read: ${req.body.messages.length} messages` };
  return /\bread\b/.test(last.text) ? { tool: { name: 'read', input: { path: 'notes.txt' } } } : { text: `answer: ${last.text}` };
};

/**
 * A temp HOME with the mock as pi's provider, a project with notes.txt. `contextWindow` and
 * `settings` (pi's settings.json) make a small window that compacts.
 */
export async function piSandbox(opts: { answer?: (req: RecordedRequest) => Reply; contextWindow?: number; settings?: Record<string, unknown>; summary?: string } = {}): Promise<PiSandbox> {
  const root = tempDir();
  const home = join(root, 'home');
  const proj = join(root, 'proj');
  mkdirSync(join(home, '.pi', 'agent'), { recursive: true });
  mkdirSync(proj);
  writeFileSync(join(proj, 'notes.txt'), 'hello from notes\n');
  const mock = await startMockApi(opts.answer ?? readOrAnswer, opts.summary);
  open.push(mock);
  const models = { providers: { mock: { baseUrl: mock.url, api: 'anthropic-messages', apiKey: 'dummy', models: [{ id: 'mock-model', contextWindow: opts.contextWindow ?? 128000 }] } } };
  writeFileSync(join(home, '.pi', 'agent', 'models.json'), JSON.stringify(models));
  if (opts.settings) writeFileSync(join(home, '.pi', 'agent', 'settings.json'), JSON.stringify(opts.settings));
  return { root, home, proj, mock };
}

/** `pi -p --provider mock --model mock-model ARGS` in the project (its whole process group killed past the timeout). */
export function pi(sb: PiSandbox, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const full = { PATH: process.env.PATH, HOME: sb.home, PI_OFFLINE: '1', NO_COLOR: '1', ...env };
  return runCli(PI, ['-p', '--provider', 'mock', '--model', 'mock-model', ...args], sb.proj, full, RUN_TIMEOUT_MS);
}

/** The directory pi keeps the project's sessions in. */
export const piSessionDir = (sb: PiSandbox) => join(sb.home, '.pi', 'agent', 'sessions', `--${sb.proj.replace(/^\//, '').replace(/[/:]/g, '-')}--`);

/** The project's session files, oldest first. */
export function piSessions(sb: PiSandbox): string[] {
  const dir = piSessionDir(sb);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, f)) : [];
}

export const piSessionId = (file: string) => JSON.parse(readFileSync(file, 'utf8').split('\n')[0]).id as string;

/** A request's messages without Anthropic's cache markers (pi puts them on the last message of each request). */
export function messagesOf(req: RecordedRequest): unknown {
  return JSON.parse(JSON.stringify(req.body.messages), (k, v) => (k === 'cache_control' ? undefined : v));
}
