// Where OpenCode records what the API billed: `info.tokens` on its assistant messages ({input,
// output, reasoning, cache: {read, write}}, cached tokens apart); reasoning is billed as output.
import { str, tokens, type UsageRecord } from './format.js';

export function opencodeUsage(entries: readonly unknown[]): UsageRecord[] {
  const out: UsageRecord[] = [];
  for (const e of entries) {
    const info = e !== null && typeof e === 'object' ? (e as { info?: Record<string, unknown> }).info : undefined;
    const t = info?.tokens as { input?: unknown; output?: unknown; reasoning?: unknown; cache?: { read?: unknown; write?: unknown } } | undefined;
    if (info?.role !== 'assistant' || t === null || typeof t !== 'object') continue;
    const created = (info.time as { created?: unknown } | undefined)?.created;
    out.push({
      id: str(info.id),
      model: str(info.modelID),
      time: typeof created === 'number' && Number.isFinite(created) ? new Date(created).toISOString() : undefined,
      cwd: str((info.path as { cwd?: unknown } | undefined)?.cwd),
      input: tokens(t.input),
      output: tokens(t.output) + tokens(t.reasoning),
      cacheRead: tokens(t.cache?.read),
      cacheWrite: tokens(t.cache?.write),
    });
  }
  return out;
}
