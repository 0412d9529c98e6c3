// Where Codex records what the API billed: `event_msg` lines of type `token_count`, whose
// `last_token_usage` is one response's and whose running `total_token_usage` names it (a repeated
// event repeats the total). OpenAI counts cached tokens inside `input_tokens`.
import { str, tokens, type UsageRecord } from './format.js';

export function codexUsage(entries: readonly unknown[]): UsageRecord[] {
  const out: UsageRecord[] = [];
  let model: string | undefined;
  let cwd: string | undefined;
  for (const e of entries) {
    if (e === null || typeof e !== 'object') continue;
    const line = e as { type?: unknown; timestamp?: unknown; payload?: Record<string, unknown> };
    const p = line.payload;
    if (p === null || typeof p !== 'object') continue;
    if (line.type === 'turn_context' || line.type === 'session_meta') {
      model = str(p.model) ?? model;
      cwd = str(p.cwd) ?? cwd;
    }
    const info = p.info as { last_token_usage?: Record<string, unknown>; total_token_usage?: Record<string, unknown> } | null | undefined;
    if (line.type !== 'event_msg' || p.type !== 'token_count' || !info?.last_token_usage) continue;
    const u = info.last_token_usage;
    const cached = tokens(u.cached_input_tokens);
    const written = tokens(u.cache_write_input_tokens);
    const total = info.total_token_usage ? tokens(info.total_token_usage.total_tokens) : undefined;
    out.push({
      id: total === undefined ? undefined : `total:${total}`,
      model,
      time: str(line.timestamp),
      cwd,
      input: Math.max(0, tokens(u.input_tokens) - cached - written),
      output: tokens(u.output_tokens),
      cacheRead: cached,
      cacheWrite: written,
    });
  }
  return out;
}
