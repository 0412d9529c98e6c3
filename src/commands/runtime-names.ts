// The runtimes the commands name (help, completion), from the runtime registry: names without
// loading any runtime; a capability's list loads them (completion only).
import { allRuntimes, runtimeNames } from '../runtimes/registry.js';
import type { Runtime } from '../api/capture/runtime.js';

export { runtimeNames };

/** The runtimes that can do `need` (import, capture, hooks, export), in registry order. */
export async function runtimesWith(need: keyof Runtime): Promise<string[]> {
  return (await allRuntimes()).filter((r) => r[need] !== undefined).map((r) => r.name);
}
