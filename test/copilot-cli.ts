// The real `copilot` CLI (GitHub Copilot CLI 1.0.102, pinned in .ci/agents) run non-interactively
// (`copilot -p … --allow-all-tools`) offline against the mock Messages API on 127.0.0.1
// (COPILOT_PROVIDER_TYPE=anthropic), in a temp COPILOT_HOME: what the suites of test/copilot-cli.test.ts share.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempDir } from './helpers.js';
import { agentBin, runCli } from './agent-clis.js';
import type { MockApi } from './mock-anthropic-api.js';

export const COPILOT = agentBin('copilot');
const RUN_TIMEOUT_MS = 120_000;
/** The CLI unpacks its 235 MB package on first run: one cache for every run (never the real ~/.cache). */
const PKG_CACHE = join(tmpdir(), 'ctx-test-copilot-pkg');

export interface CopilotBox {
  home: string;
  /** COPILOT_HOME */
  copilotHome: string;
  proj: string;
  mock: MockApi;
}

/** A temp HOME and COPILOT_HOME, a project with notes.txt, the mock. */
export function copilotBox(mock: MockApi): CopilotBox {
  const root = tempDir();
  const home = join(root, 'home');
  const copilotHome = join(home, '.copilot');
  const proj = join(root, 'proj');
  mkdirSync(copilotHome, { recursive: true });
  mkdirSync(proj);
  writeFileSync(join(proj, 'notes.txt'), 'hello from notes\n');
  return { home, copilotHome, proj, mock };
}

export interface CopilotRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `copilot ARGS` in the project (its whole process group killed past the timeout); `env` adds to the offline env. */
export function copilot(box: CopilotBox, args: string[], env: Record<string, string> = {}): Promise<CopilotRun> {
  const full = {
    PATH: process.env.PATH,
    HOME: box.home,
    COPILOT_HOME: box.copilotHome,
    COPILOT_PKG_CACHE_HOME: PKG_CACHE,
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_TYPE: 'anthropic',
    COPILOT_PROVIDER_BASE_URL: box.mock.url,
    COPILOT_PROVIDER_API_KEY: 'dummy',
    COPILOT_MODEL: 'mock-model',
    NO_COLOR: '1',
    ...env,
  };
  return runCli(COPILOT, [...args, '--allow-all-tools', '-s'], box.proj, full, RUN_TIMEOUT_MS);
}

/** The sessions' folders Copilot wrote, by id. */
export function sessionIds(box: CopilotBox): string[] {
  const dir = join(box.copilotHome, 'session-state');
  return existsSync(dir) ? readdirSync(dir).filter((d) => !d.startsWith('.')).sort() : [];
}

export const eventsOf = (box: CopilotBox, id: string) => join(box.copilotHome, 'session-state', id, 'events.jsonl');

/** A request's messages with Copilot's clock line taken out of each prompt (it differs run to run). */
export function withoutClock(messages: unknown): unknown {
  return JSON.parse(JSON.stringify(messages).replace(/<current_datetime>[^<]*<\/current_datetime>\\n\\n/g, ''));
}
