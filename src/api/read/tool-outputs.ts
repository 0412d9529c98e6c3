// How each format's runtime unwraps a tool result it wraps (ToolKnowledge.output: Codex's shell gives
// JSON with the output and exit code): the web view draws the output, not the wrapper.
import type { ToolKnowledge } from '../capture/runtime.js';

/** format → its runtime's unwrapping, if it has one. */
export type OutputReader = (format: string) => ToolKnowledge['output'];

export async function outputReader(): Promise<OutputReader> {
  // loaded when asked for, as api/search/effects.ts does: the runtimes import the api
  const { allRuntimes } = await import('../../runtimes/registry.js');
  const byFormat = new Map<string, NonNullable<ToolKnowledge['output']>>();
  for (const r of await allRuntimes()) for (const f of r.formats) if (r.tools?.output) byFormat.set(f, r.tools.output);
  return (format) => byFormat.get(format);
}
