// The real `gemini` CLI (Gemini CLI 0.61.0, pinned in .ci/agents) in a temp HOME against a mock
// Gemini API on 127.0.0.1: what the Gemini CLI tests drive (its sessions, hooks, export, MCP).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { tempDir } from './helpers.js';
import { agentBin, runCli } from './agent-clis.js';
import { startMockGemini, type MockGemini, type Turn } from './mock-gemini-api.js';

const GEMINI = agentBin('gemini');
const RUN_TIMEOUT_MS = 60_000;

export interface Sandbox {
  home: string;
  proj: string;
  mock: MockGemini;
}

const open: MockGemini[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** The first answer calls read_file on notes.txt; every later one is text. */
export const readThenText = (proj: string) => (n: number): Turn =>
  n === 0 ? [{ functionCall: { name: 'read_file', args: { file_path: join(proj, 'notes.txt') } } }] : [{ text: `answer ${n}` }];

/** Gemini CLI's settings.json in HOME/.gemini: an API key, no folder trust prompt, every session kept, nothing sent home; `more` merged on top. */
export function writeGeminiSettings(home: string, more: Record<string, unknown> = {}): void {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    // Gemini's session cleanup deletes files by short id: off
    general: { sessionRetention: { enabled: false }, enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ...more,
  };
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
}

/** The environment a Gemini CLI run gets: only these, the API at `url`. */
export const geminiEnv = (home: string, url: string) => ({ PATH: process.env.PATH, HOME: home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: url, GEMINI_CLI_NO_RELAUNCH: '1', NO_COLOR: '1' });

/** A temp HOME whose Gemini settings use an API key and keep every session, a project with notes.txt, a mock API. */
export async function sandbox(script?: (proj: string) => (n: number, body: Record<string, unknown>) => Turn, more: Record<string, unknown> = {}): Promise<Sandbox> {
  const root = tempDir();
  const home = join(root, 'home');
  const proj = join(root, 'proj');
  mkdirSync(proj);
  writeFileSync(join(proj, 'notes.txt'), 'hello from notes\n');
  writeGeminiSettings(home, more);
  const mock = await startMockGemini((script ?? readThenText)(proj));
  open.push(mock);
  return { home, proj, mock };
}

/** `gemini ARGS` in the project, killed (its whole process group) if it runs past the timeout. */
export function gemini(sb: Sandbox, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = geminiEnv(sb.home, sb.mock.url);
  return runCli(GEMINI, args, sb.proj, env, RUN_TIMEOUT_MS);
}
