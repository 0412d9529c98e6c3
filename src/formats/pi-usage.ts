// Where pi records what the API billed: `usage` on its assistant messages ({input, output,
// cacheRead, cacheWrite}, cached tokens apart), the project in the session header's `cwd`.
import { str, tokens, type UsageRecord } from './format.js';

export function piUsage(entries: readonly unknown[]): UsageRecord[] {
  const out: UsageRecord[] = [];
  let cwd: string | undefined;
  for (const e of entries) {
    if (e === null || typeof e !== 'object') continue;
    const line = e as { type?: unknown; id?: unknown; cwd?: unknown; timestamp?: unknown; message?: { role?: unknown; model?: unknown; usage?: Record<string, unknown> | null } };
    if (line.type === 'session') cwd = str(line.cwd) ?? cwd;
    const m = line.message;
    if (line.type !== 'message' || m?.role !== 'assistant' || m.usage === null || typeof m.usage !== 'object') continue;
    out.push({ id: str(line.id), model: str(m.model), time: str(line.timestamp), cwd, input: tokens(m.usage.input), output: tokens(m.usage.output), cacheRead: tokens(m.usage.cacheRead), cacheWrite: tokens(m.usage.cacheWrite) });
  }
  return out;
}
