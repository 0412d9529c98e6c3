// What a context's tool calls did to files, asked of the runtime whose format the commit is in (its
// `tools` capability). A format no runtime writes (a library's own chains) is read with every
// runtime's knowledge, first answer wins: tool names do not collide across the runtimes.
import type { ToolEffect, ToolKnowledge } from '../capture/runtime.js';

export type { ToolEffect, TouchAction } from '../capture/runtime.js';

/** (format, tool call) → its effects; the runtimes are loaded once per reader. */
export type EffectsReader = (format: string, call: { name: string; input: unknown }) => ToolEffect[];

export async function effectsReader(): Promise<EffectsReader> {
  const { allRuntimes } = await import('../../runtimes/registry.js');
  const runtimes = await allRuntimes();
  const byFormat = new Map<string, ToolKnowledge>();
  for (const r of runtimes) for (const f of r.formats) if (r.tools) byFormat.set(f, r.tools);
  const every = runtimes.flatMap((r) => (r.tools ? [r.tools] : []));
  return (format, call) => {
    const own = byFormat.get(format);
    if (own) return own.effects(call);
    for (const t of every) {
      const e = t.effects(call);
      if (e.length) return e;
    }
    return [];
  };
}
