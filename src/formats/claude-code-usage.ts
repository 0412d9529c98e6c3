// Where Claude Code records what the API billed: `message.usage` on assistant lines, one line per
// content block, each repeating the response's usage under the same message id.
import { str, tokens, type UsageRecord } from './format.js';

export function claudeUsage(entries: readonly unknown[]): UsageRecord[] {
  const out: UsageRecord[] = [];
  let cwd: string | undefined;
  for (const e of entries) {
    if (e === null || typeof e !== 'object') continue;
    const line = e as { type?: unknown; cwd?: unknown; timestamp?: unknown; requestId?: unknown; message?: { id?: unknown; model?: unknown; usage?: unknown } };
    cwd = str(line.cwd) ?? cwd;
    const m = line.message;
    if (line.type !== 'assistant' || m === null || typeof m !== 'object' || m.usage === null || typeof m.usage !== 'object') continue;
    const u = m.usage as Record<string, unknown>;
    const model = str(m.model);
    out.push({
      id: str(m.id) ?? str(line.requestId),
      // '<synthetic>': a line Claude Code wrote itself, no API call
      model: model === '<synthetic>' ? undefined : model,
      time: str(line.timestamp),
      cwd,
      input: tokens(u.input_tokens),
      output: tokens(u.output_tokens),
      cacheRead: tokens(u.cache_read_input_tokens),
      cacheWrite: tokens(u.cache_creation_input_tokens),
    });
  }
  return out;
}
