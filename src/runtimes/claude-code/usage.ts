// Model and token usage of the assistant lines in a transcript slice (what the API reported).
import { mayBeCut, parseHeads, parseJsonLines } from '../../formats/jsonl.js';

const FIELDS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const;

export interface Usage {
  model?: string;
  usage?: Partial<Record<(typeof FIELDS)[number], number>>;
}

/**
 * Claude Code writes one line per content block of a response, each repeating the response's
 * usage: count each message id once (its last line), and name the last real model seen.
 */
export function usageOf(bytes: Uint8Array): Usage {
  const byMessage = new Map<string, Record<string, unknown>>();
  let model: string | undefined;
  let anonymous = 0;
  let lines: { value: unknown }[];
  try {
    lines = parseJsonLines(bytes, headsOfUsage);
  } catch {
    return {};
  }
  for (const { value } of lines) {
    const e = value as { type?: unknown; message?: { id?: unknown; model?: unknown; usage?: unknown } } | null;
    if (e?.type !== 'assistant' || typeof e.message !== 'object' || e.message === null) continue;
    const m = e.message;
    if (typeof m.model === 'string' && m.model !== '<synthetic>') model = m.model;
    if (typeof m.usage === 'object' && m.usage !== null) byMessage.set(typeof m.id === 'string' ? m.id : `#${anonymous++}`, m.usage as Record<string, unknown>);
  }
  const out: Usage = {};
  if (model) out.model = model;
  if (byMessage.size) {
    const usage: Usage['usage'] = {};
    for (const u of byMessage.values())
      for (const f of FIELDS) if (Number.isSafeInteger(u[f]) && (u[f] as number) >= 0) usage[f] = (usage[f] ?? 0) + (u[f] as number);
    out.usage = usage;
  }
  return out;
}

/** A line whose long strings are read as their heads (a 50 MB tool result is never one string), whole when a field read here may be cut. */
function headsOfUsage(line: Uint8Array): unknown {
  return parseHeads(line, (v) => {
    const m = (v as { message?: { id?: unknown; model?: unknown } } | null)?.message;
    return !mayBeCut(m?.id) && !mayBeCut(m?.model);
  });
}
