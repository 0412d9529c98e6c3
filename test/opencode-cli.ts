// The real `opencode` CLI (opencode-ai 1.18.33, pinned in .ci/agents) run non-interactively
// (`opencode run`) against a mock Chat Completions API on 127.0.0.1, in a temp HOME and XDG dirs.
// opencode ignores SIGTERM while it compacts: a run past its time is killed (SIGKILL, process group).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers.js';
import { agentBin, runCli, type CliRun } from './agent-clis.js';
export type { CliRun } from './agent-clis.js';
import { startMockChat, type ChatScript, type MockChat } from './mock-chat-api.js';

export const OPENCODE = agentBin('opencode');
/** opencode installs its plugin SDK into a config directory that has plugins (npm, first run): slow */
export const RUN_TIMEOUT_MS = 240_000;

export interface Sandbox {
  root: string;
  home: string;
  proj: string;
  mock: MockChat;
  env: Record<string, string>;
}

/**
 * A config directory opencode takes as having its plugin SDK installed (a package.json whose
 * dependencies its package-lock.json lists, a node_modules): otherwise it runs npm there first,
 * online, and its plugins wait for it. ctx's plugin imports nothing from it.
 */
function provisioned(dir: string): void {
  const deps = { '@opencode-ai/plugin': '1.18.33' };
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: deps }));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: deps } } }));
}

/** opencode's first request of a session asks for its title: answered with a fixed one. */
export const isTitleRequest = (body: Record<string, unknown>) => JSON.stringify((body.messages as unknown[] | undefined)?.[0] ?? '').includes('You are a title generator');

/** The requests of the agent itself (not title generation). */
export const agentRequests = (mock: MockChat) => mock.requests.filter((r) => !isTitleRequest(r.body));

/** A temp HOME whose opencode config names the mock provider, a project with notes.txt, the mock. */
/** The environment `opencode` runs in under `home`, its config naming the mock provider at `baseUrl` (and `model` settings). */
export function sandboxConfig(home: string, proj: string, baseUrl: string, model: Record<string, unknown> = {}): Record<string, string> {
  mkdirSync(join(home, '.config', 'opencode'), { recursive: true });
  const config = {
    provider: { mock: { npm: '@ai-sdk/openai-compatible', options: { baseURL: baseUrl, apiKey: 'dummy' }, models: { 'mock-model': model } } },
    model: 'mock/mock-model',
    autoupdate: false,
    share: 'disabled',
  };
  writeFileSync(join(home, '.config', 'opencode', 'opencode.json'), JSON.stringify(config, null, 2));
  for (const dir of [join(home, '.config', 'opencode'), join(proj, '.opencode')]) provisioned(dir);
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    NO_COLOR: '1',
  };
}

/** A temp HOME whose opencode config names the mock provider, a project with notes.txt, the mock. */
export async function sandbox(script: ChatScript, opts: { context?: number; promptTokens?: (n: number, body: Record<string, unknown>) => number; root?: string } = {}): Promise<Sandbox> {
  // a sandbox several tests share lives in a root of the caller's: tempDir() is emptied after each test
  const root = opts.root ?? tempDir();
  const home = join(root, 'home');
  const proj = join(root, 'proj');
  mkdirSync(proj);
  writeFileSync(join(proj, 'notes.txt'), 'hello from notes\n');
  const mock = await startMockChat((body, n) => (isTitleRequest(body) ? { text: 'A title' } : script(body, n)), { promptTokens: opts.promptTokens ?? (() => 10) });
  const env = sandboxConfig(home, proj, mock.baseUrl, opts.context ? { limit: { context: opts.context, output: 1000 } } : {});
  return { root, home, proj, mock, env };
}

/** `opencode ARGS` in the project (stdin closed: `opencode run` reads a piped stdin), killed past the timeout. */
export function opencode(sb: Sandbox, args: string[], cwd = sb.proj): Promise<CliRun> {
  return runCli(OPENCODE, args, cwd, sb.env, RUN_TIMEOUT_MS);
}

/** The one session opencode holds for the project, by the session id `opencode run` left in its log. */
export async function exportSession(sb: Sandbox, id: string): Promise<string> {
  const r = await opencode(sb, ['export', id]);
  if (r.code !== 0) throw new Error(`opencode export ${id}: ${r.stderr}`);
  return r.stdout;
}

/** `opencode run MESSAGE…` starting a new session: its id, from the run's JSON events (no second opencode process to list sessions). */
export async function newSession(sb: Pick<Sandbox, 'proj' | 'env'>, ...message: string[]): Promise<string> {
  const r = await runCli(OPENCODE, ['run', '--format', 'json', ...message], sb.proj, sb.env, RUN_TIMEOUT_MS);
  if (r.code !== 0) throw new Error(`opencode run: ${r.stderr}`);
  const id = (JSON.parse(r.stdout.split('\n')[0]) as { sessionID?: unknown }).sessionID;
  if (typeof id !== 'string' || !id.startsWith('ses_')) throw new Error(`opencode run printed no session id: ${r.stdout.slice(0, 200)}`);
  return id;
}
