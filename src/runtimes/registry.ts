// Adding a runtime: one folder under src/runtimes/ and one line here. A runtime's module is loaded
// only when something asks for it (`ctx --version` loads none); a hook loads only a built-in runtime's
// live capture (CAPTURES: its capture.ts, not its import, hook settings, export or tools). A name that is none of
// these is a runtime from outside: `ctx-runtime-<name>` on PATH (docs/runtime-protocol.md), run only
// when the user's command or hook names it. The lists (runtimeNames, allRuntimes) hold the built-in
// runtimes alone: listing never runs an executable; `ctx runtime list` finds those on PATH.
import { unknownName } from '../core/nearest.js';
import { UsageError } from '../errors/index.js';
import type { LiveCapture, Runtime } from '../api/capture/runtime.js';
import type { CheckReport, Found } from './external/check.js';

const RUNTIMES: Record<string, () => Promise<Runtime>> = {
  'claude-code': async () => (await import('./claude-code/index.js')).claudeCode,
  codex: async () => (await import('./codex/index.js')).codex,
  'gemini-cli': async () => (await import('./gemini/index.js')).geminiCli,
  pi: async () => (await import('./pi/index.js')).pi,
  opencode: async () => (await import('./opencode/index.js')).opencode,
  copilot: async () => (await import('./copilot/index.js')).copilot,
};

/** Each built-in runtime's live capture alone, the same object as its plug-in's `capture`: what `ctx hook RUNTIME` loads (a runtime not listed: its whole plug-in). */
const CAPTURES: Record<string, () => Promise<LiveCapture>> = {
  'claude-code': async () => (await import('./claude-code/capture.js')).capture,
  codex: async () => (await import('./codex/capture.js')).capture,
  'gemini-cli': async () => (await import('./gemini/capture.js')).capture,
  pi: async () => (await import('./pi/capture.js')).capture,
  opencode: async () => (await import('./opencode/capture.js')).capture,
  copilot: async () => (await import('./copilot/capture.js')).capture,
};

/** The variables each runtime's shell tool sets for its commands, all of which its `capture.shellSession` needs (a file of a few bytes each). */
const SHELL_ENV: Record<string, () => Promise<readonly string[]>> = {
  'claude-code': async () => (await import('./claude-code/shell-env.js')).SHELL_ENV,
  codex: async () => (await import('./codex/shell-env.js')).SHELL_ENV,
  pi: async () => (await import('./pi/shell-env.js')).SHELL_ENV,
  copilot: async () => (await import('./copilot/shell-env.js')).SHELL_ENV,
};

export type { Check, CheckReport, Found } from './external/check.js';

/** The built-in runtimes whose shell tool may be running this process (its variables are set), without loading any. */
export async function shellRuntimes(env: NodeJS.ProcessEnv): Promise<string[]> {
  const set: string[] = [];
  for (const [name, vars] of Object.entries(SHELL_ENV)) if ((await vars()).every((v) => env[v])) set.push(name);
  return set;
}

/** Every built-in runtime's name, without loading any. */
export const runtimeNames = (): string[] => Object.keys(RUNTIMES);

/** The runtime named (built-in names win); `need` names a capability it must have (`import`, `export`, …). */
export async function runtime(name: string, need?: keyof Runtime, env: NodeJS.ProcessEnv = process.env): Promise<Runtime> {
  const r = Object.hasOwn(RUNTIMES, name) ? await RUNTIMES[name]() : await outside(name, env);
  if (need !== undefined && r[need] === undefined) {
    const able = (await allRuntimes()).filter((x) => x[need] !== undefined).map((x) => x.name);
    throw new UsageError(`${name} has no ${need} (${need}: ${able.join(', ') || 'none'})`);
  }
  return r;
}

/** The runtime's live capture, as `runtime(name, 'capture')` gives it, without loading the rest of a built-in plug-in. */
export async function liveCapture(name: string, env: NodeJS.ProcessEnv = process.env): Promise<LiveCapture> {
  return Object.hasOwn(CAPTURES, name) && Object.hasOwn(RUNTIMES, name) ? CAPTURES[name]() : (await runtime(name, 'capture', env)).capture!;
}

async function outside(name: string, env: NodeJS.ProcessEnv): Promise<Runtime> {
  const unknown = () => unknownName('runtime', name, runtimeNames(), `unknown runtime '${name}' (${runtimeNames().join(', ')}; or an executable ctx-runtime-${name} on PATH)`);
  return (await import('./external/index.js')).externalRuntime(name, unknown, env);
}

/** The built-in runtimes. */
export function allRuntimes(): Promise<Runtime[]> {
  return Promise.all(Object.values(RUNTIMES).map((load) => load()));
}

/** The runtime whose sessions are stored in `format`, if any (built-in only: a store never picks an executable to run). */
export async function runtimeOfFormat(format: string): Promise<Runtime | undefined> {
  return (await allRuntimes()).find((r) => r.formats.includes(format));
}

/** The `ctx-runtime-<name>` executables on PATH, none run; a built-in name among them is not used. */
export async function externalRuntimes(env: NodeJS.ProcessEnv = process.env): Promise<Found[]> {
  return (await import('./external/check.js')).foundOnPath(env);
}

/** The conformance check of a runtime from outside (`ctx runtime check`). */
export async function checkExternalRuntime(name: string, env: NodeJS.ProcessEnv = process.env): Promise<CheckReport> {
  return (await import('./external/check.js')).checkRuntime(name, runtimeNames(), env);
}
