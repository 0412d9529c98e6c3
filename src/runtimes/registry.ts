// Adding a runtime: one folder under src/runtimes/ and one line here. A runtime's module is loaded
// only when something asks for it (the hook loads one, `ctx --version` none).
import { unknownName } from '../core/nearest.js';
import { UsageError } from '../errors/index.js';
import type { Runtime } from '../api/capture/runtime.js';

const RUNTIMES: Record<string, () => Promise<Runtime>> = {
  'claude-code': async () => (await import('./claude-code/index.js')).claudeCode,
  codex: async () => (await import('./codex/index.js')).codex,
  'gemini-cli': async () => (await import('./gemini/index.js')).geminiCli,
  copilot: async () => (await import('./copilot/index.js')).copilot,
};

/** Every runtime's name, without loading any. */
export const runtimeNames = (): string[] => Object.keys(RUNTIMES);

/** The runtime named; `need` names a capability it must have (`import`, `export`, …). */
export async function runtime(name: string, need?: keyof Runtime): Promise<Runtime> {
  if (!Object.hasOwn(RUNTIMES, name)) throw new UsageError(unknownName('runtime', name, runtimeNames(), `unknown runtime '${name}' (${runtimeNames().join(', ')})`));
  const r = await RUNTIMES[name]();
  if (need !== undefined && r[need] === undefined) {
    const able = (await allRuntimes()).filter((x) => x[need] !== undefined).map((x) => x.name);
    throw new UsageError(`${name} has no ${need} (${need}: ${able.join(', ') || 'none'})`);
  }
  return r;
}

export function allRuntimes(): Promise<Runtime[]> {
  return Promise.all(Object.values(RUNTIMES).map((load) => load()));
}

/** The runtime whose sessions are stored in `format`, if any. */
export async function runtimeOfFormat(format: string): Promise<Runtime | undefined> {
  return (await allRuntimes()).find((r) => r.formats.includes(format));
}
