// Where Gemini CLI records what the API billed: `tokens` on its `gemini` messages (a JSONL line, a
// `$set` of messages, or the chat file's messages). Gemini counts cached tokens inside `input`
// and bills `thoughts` as output.
import { str, tokens, type UsageRecord } from './format.js';

export function geminiUsage(entries: readonly unknown[]): UsageRecord[] {
  const out: UsageRecord[] = [];
  const each = (m: unknown) => {
    if (m === null || typeof m !== 'object') return;
    const g = m as { type?: unknown; id?: unknown; model?: unknown; timestamp?: unknown; tokens?: Record<string, unknown> | null };
    if (g.type !== 'gemini' || g.tokens === null || typeof g.tokens !== 'object') return;
    const cached = tokens(g.tokens.cached);
    out.push({
      id: str(g.id),
      model: str(g.model),
      time: str(g.timestamp),
      input: Math.max(0, tokens(g.tokens.input) - cached),
      output: tokens(g.tokens.output) + tokens(g.tokens.thoughts),
      cacheRead: cached,
      cacheWrite: 0,
    });
  };
  for (const e of entries) {
    const set = e !== null && typeof e === 'object' ? (e as { $set?: { messages?: unknown } }).$set : undefined;
    if (Array.isArray(set?.messages)) set.messages.forEach(each);
    else each(e);
  }
  return out;
}
