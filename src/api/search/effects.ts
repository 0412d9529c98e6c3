// What a context's tool calls did to files, asked of the runtime whose format the commit is in (its
// `tools` capability). A format no runtime writes (a library's own chains) is read with every
// runtime's knowledge, first answer wins: tool names do not collide across the runtimes.
import type { ToolEffect, ToolKnowledge, ToolView } from '../capture/runtime.js';

export type { ToolEffect, TouchAction } from '../capture/runtime.js';

type Call = { name: string; input: unknown };

/** (format, tool call) → its effects; the runtimes are loaded once per reader. */
export type EffectsReader = (format: string, call: Call) => ToolEffect[];

/** What the runtimes know of a tool call: its effects, the shell command it runs (if it is a shell tool), its neutral view. */
export interface ToolReader {
  effects: EffectsReader;
  command(format: string, call: Call): string | undefined;
  view(format: string, call: Call): ToolView | undefined;
}

export async function toolReader(): Promise<ToolReader> {
  const { allRuntimes } = await import('../../runtimes/registry.js');
  const runtimes = await allRuntimes();
  const byFormat = new Map<string, ToolKnowledge>();
  for (const r of runtimes) for (const f of r.formats) if (r.tools) byFormat.set(f, r.tools);
  const every = runtimes.flatMap((r) => (r.tools ? [r.tools] : []));
  const ask = <T>(format: string, q: (t: ToolKnowledge) => T, found: (v: T) => boolean): T | undefined => {
    const own = byFormat.get(format);
    if (own) return q(own);
    for (const t of every) {
      const v = q(t);
      if (found(v)) return v;
    }
    return undefined;
  };
  return {
    effects: (format, call) => ask(format, (t) => t.effects(call), (e) => e.length > 0) ?? [],
    command: (format, call) => ask(format, (t) => t.command?.(call), (c) => c !== undefined),
    view: (format, call) => ask(format, (t) => t.view?.(call), (v) => v !== undefined),
  };
}

export async function effectsReader(): Promise<EffectsReader> {
  return (await toolReader()).effects;
}
