// The prompt that led to a tool call: the last user message with words before it, in its context
// commit or, when that commit holds none before it, in the commits before (a turn's prompt may be
// committed on its own).
import type { NeutralMessage } from '../../core/neutral.js';
import { requestText } from '../../core/summary.js';
import type { RepoContext } from '../repo/repo-context.js';

/** How many commits back a prompt is looked for. */
const MAX_BACK = 64;
/** A prompt longer than this is cut (with an ellipsis): blame shows a gist, `ctx why` the whole. */
export const MAX_PROMPT = 500;

/** The user's request in a message: its text blocks joined, without what the runtime wrapped around it; null for a tool result or a message without words. */
export function userText(m: NeutralMessage): string | null {
  if (m.role !== 'user' || m.author !== undefined) return null;
  const text = requestText(m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')).trim();
  return text === '' ? null : text;
}

/** `(context, entry) → prompt`, each commit's messages read once however many entries of it are asked about; `preload`: commits (40 hex) read together first. */
export async function promptFinder(ctx: RepoContext, preload: readonly string[] = []): Promise<(context: string, entry: number) => Promise<string | null>> {
  // grep's module (and its regular expressions) loaded only when a prompt is looked for this way
  const { commitMessages, commitsMessages } = await import('../search/scan.js');
  const read = new Map<string, Promise<NeutralMessage[]>>();
  const first = [...new Set(preload)];
  const loaded = await commitsMessages(ctx, first).catch(() => first.map(() => null));
  first.forEach((oid, i) => read.set(oid, Promise.resolve(loaded[i] ?? [])));
  const messagesOf = (oid: string) => read.get(oid) ?? read.set(oid, commitMessages(ctx, oid).then((m) => m ?? [], () => [])).get(oid)!;
  const cut = (t: string) => (t.length > MAX_PROMPT ? `${t.slice(0, MAX_PROMPT - 1)}…` : t);
  const lastPrompt = (messages: NeutralMessage[], before: number) => {
    for (let i = Math.min(before, messages.length) - 1; i >= 0; i--) {
      const t = userText(messages[i]);
      if (t !== null) return cut(t);
    }
    return null;
  };
  return async (context, entry) => {
    const own = lastPrompt(await messagesOf(context), entry);
    if (own !== null) return own;
    const chain = await ctx.engine.chain(context, MAX_BACK);
    for (const link of chain.slice(1)) {
      const t = lastPrompt(await messagesOf(link.oid), Infinity);
      if (t !== null) return t;
    }
    return null;
  };
}

/** The prompt before entry `entry` of context commit `context` (40 hex), or null when none is found. */
export async function promptOf(ctx: RepoContext, context: string, entry: number): Promise<string | null> {
  return (await promptFinder(ctx))(context, entry);
}
