// The real Codex CLI (.ci/agents; test/agent-clis.ts) in a sandbox of its own: a temp HOME, CODEX_HOME and
// working directory, a config.toml whose model provider is a mock Responses API on 127.0.0.1, no
// approvals, no update check. Every run is killed after a timeout.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers.js';
import { agentBin, agentMissing, runCli } from './agent-clis.js';
import type { MockOpenAI } from './mock-openai-api.js';

export const CODEX_BIN = agentBin('codex');
/** Why the real-CLI suites skip, or null when they run. */
export const CODEX_MISSING = agentMissing('codex');
const RUN_TIMEOUT_MS = 60_000;

export interface CodexRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** the thread id Codex printed */
  thread?: string;
}

export interface CodexSandbox {
  home: string;
  codexHome: string;
  cwd: string;
  env: Record<string, string>;
  run(args: string[]): Promise<CodexRun>;
}

/** Codex's config.toml in `codexHome`: the mock provider at `baseUrl`, never asking, never updating; `head` goes first (a model line replaces gpt-mock's). */
export function writeCodexConfig(codexHome: string, baseUrl: string, head = ''): void {
  writeFileSync(
    join(codexHome, 'config.toml'),
    `${head}${/^model = /m.test(head) ? '' : 'model = "gpt-mock"\n'}model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.mock]
name = "Mock"
base_url = "${baseUrl}"
env_key = "MOCK_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`,
  );
}

/** The environment a Codex run gets: only these. */
export const codexEnv = (home: string, codexHome: string): Record<string, string> => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: codexHome, MOCK_API_KEY: 'dummy', NO_COLOR: '1' });

export function codexSandbox(mock: MockOpenAI, extraEnv: Record<string, string> = {}, extraConfig = ''): CodexSandbox {
  const root = tempDir();
  const [home, codexHome, cwd] = ['home', 'codex-home', 'work'].map((d) => join(root, d));
  for (const d of [home, codexHome, cwd]) mkdirSync(d, { recursive: true });
  writeCodexConfig(codexHome, mock.baseUrl, extraConfig);
  const env: Record<string, string> = { ...codexEnv(home, codexHome), ...extraEnv };
  return {
    home,
    codexHome,
    cwd,
    env,
    run: async (args) => {
      const r = await runCli(CODEX_BIN, ['exec', '--skip-git-repo-check', ...args], cwd, env, RUN_TIMEOUT_MS);
      return { ...r, thread: /session id: (\S+)/.exec(r.stderr)?.[1] };
    },
  };
}

/**
 * Polls `check` until it holds (a notify program runs after Codex exits) or fails after `ms`: every
 * 100 ms at first, then less often, up to every second (a check may start a ctx, whose CPU the capture it waits for needs).
 */
export async function eventually<T>(check: () => T | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (let polls = 0; ; polls++) {
    const v = check();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, Math.min(100 + 50 * polls, 1000)));
  }
}

export const readJsonLines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/**
 * The tables `ctx hooks install codex` appends to config.toml to trust its hooks at `hooksJson`:
 * `sha256:` of the identity Codex 0.171 hashes (checked against the real CLI in codex-cli.test.ts).
 */
export function codexTrust(hooksJson: string, command: string, group = 0): string {
  return ['stop', 'pre_compact', 'post_compact', 'session_end']
    .map((event) => {
      const hash = createHash('sha256').update(`{"event_name":"${event}","hooks":[{"async":false,"command":${JSON.stringify(command)},"timeout":30,"type":"command"}]}`).digest('hex');
      return `[hooks.state.${JSON.stringify(`${hooksJson}:${event}:${group}:0`)}]\ntrusted_hash = "sha256:${hash}"\n`;
    })
    .join('\n');
}

/** What `ctx hooks status codex` prints: each hooks.json event, then notify, with ctx's command or `-`. */
export const codexHookLines = (command: string | null) => ['Stop', 'PreCompact', 'PostCompact', 'SessionEnd', 'notify'].map((e) => `${e}\t${command ?? '-'}\n`).join('');
