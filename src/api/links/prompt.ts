// The prompt that led to a tool call: the last user message with text before it, in its context
// commit or, when that commit holds none before it, in the commits before (a turn's prompt may be
// committed on its own).
import type { NeutralMessage } from '../../core/neutral.js';
import { requestText } from '../../core/summary.js';
import { commitMessages } from '../search/grep.js';
import type { RepoContext } from '../repo/repo-context.js';

/** How many commits back a prompt is looked for. */
const MAX_BACK = 64;
/** A prompt longer than this is cut (with an ellipsis): blame shows a gist, `ctx why` the whole. */
const MAX_PROMPT = 500;

/** The user's request in a message: its text blocks joined, without what the runtime wrapped around it; null for a tool result or a message without words. */
export function userText(m: NeutralMessage): string | null {
  if (m.role !== 'user' || m.author !== undefined) return null;
  const text = requestText(m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')).trim();
  return text === '' ? null : text;
}

/** The prompt before entry `entry` of context commit `context` (40 hex), or null when none is found. */
export async function promptOf(ctx: RepoContext, context: string, entry: number): Promise<string | null> {
  const chain = await ctx.engine.chain(context, MAX_BACK);
  for (const [k, link] of chain.entries()) {
    const messages = (await commitMessages(ctx, link.oid).catch(() => null)) ?? [];
    for (let i = (k === 0 ? entry : messages.length) - 1; i >= 0; i--) {
      const t = userText(messages[i]);
      if (t !== null) return t.length > MAX_PROMPT ? `${t.slice(0, MAX_PROMPT - 1)}…` : t;
    }
  }
  return null;
}
