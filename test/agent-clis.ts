// Where the real agent CLIs are: .ci/agents/node_modules/.bin, installed by `npm run agents` and by
// .ci/run, never by the top-level `npm ci` (they are about 1.7 GB; a newcomer trying ctx needs none).
// A suite that drives one is skipped, saying why, when it is missing; under CI (CI=true) a missing
// CLI fails the suite instead, so CI can never pass by skipping them.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { ROOT } from './helpers.js';

export const AGENTS_BIN = join(ROOT, '.ci', 'agents', 'node_modules', '.bin');

/** The path of an agent CLI's command (`claude`, `codex`, `gemini`). */
export const agentBin = (command: string): string => join(AGENTS_BIN, command);

/** Why the CLI cannot be used here, or null when it is installed. */
export function agentMissing(command: string): string | null {
  return existsSync(agentBin(command)) ? null : `${agentBin(command)} not found: \`npm run agents\` installs the pinned agent CLIs`;
}

/** `describe` for a suite that needs a CLI: skipped with the reason when it is missing, failed under CI. */
export function describeAgent(title: string, missing: string | null, fn: () => void): void {
  if (missing === null) describe(title, fn);
  else if (process.env.CI) describe(title, () => it('has its agent CLI installed', () => { throw new Error(missing); }));
  else describe.skip(`${title} (skipped: ${missing})`, fn);
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How long one CLI run may take before its whole process group is killed (SIGKILL: opencode ignores SIGTERM). */
export const RUN_TIMEOUT_MS = 120_000;

/** `bin ARGS` in `cwd` with exactly `env`, stdin closed, in a process group of its own killed after the timeout. */
export function runCli(bin: string, args: string[], cwd: string, env: Record<string, string | undefined>, timeoutMs = RUN_TIMEOUT_MS): Promise<CliRun> {
  return new Promise((done) => {
    const p = spawn(bin, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let [stdout, stderr] = ['', ''];
    p.stdout.on('data', (b) => (stdout += b));
    p.stderr.on('data', (b) => (stderr += b));
    const timer = setTimeout(() => process.kill(-p.pid!, 'SIGKILL'), timeoutMs);
    p.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}
