// The view of one agent in a conversation of several (`materialize --for AGENT`): its own entries as
// the assistant, the other agents' attributed by name, and what came after its cursor in one
// "While you were away:" message. Pure: the caller says who wrote each message and whether it is new.
import type { NeutralMessage } from './neutral.js';

export interface SourcedMessage {
  message: NeutralMessage;
  /** the author of the commit the message comes from (meta.json `author`); the message's own wins */
  author?: string;
  /** the message comes from a commit after the agent's cursor */
  unseen: boolean;
}

export const AWAY_HEADER = 'While you were away:';

/** `[name] text`: another author's words as the agent reads them. */
export const attributed = (name: string, text: string) => `[${name}] ${text}`;

const textOf = (m: NeutralMessage) =>
  m.content
    .flatMap((b) => (b.type === 'text' && b.text.trim() !== '' ? [b.text] : []))
    .join('\n');

/**
 * Seen messages: the agent's assistant entries stay the assistant's; another author's assistant
 * entries become user messages `[author] text` (their text only) and their tool results are dropped
 * (their calls are not the agent's); the rest stays as it is. Unseen messages: the text of each user
 * and assistant message, `[author or role] text`, joined by blank lines after the header, as one user
 * message at the end. No message keeps an `author`.
 */
export function forView(messages: readonly SourcedMessage[], agent: string): NeutralMessage[] {
  const out: NeutralMessage[] = [];
  const away: string[] = [];
  for (const { message: m, author: commitAuthor, unseen } of messages) {
    const { author: own, ...rest } = m;
    const author = own ?? commitAuthor;
    const other = author !== undefined && author !== agent;
    if (unseen) {
      const text = textOf(m);
      if ((m.role === 'user' || m.role === 'assistant') && text !== '') away.push(attributed(author ?? m.role, text));
      continue;
    }
    if (m.role === 'assistant' && other) {
      const text = textOf(m);
      if (text !== '') out.push({ ...rest, role: 'user', content: [{ type: 'text', text: attributed(author, text) }] });
    } else if (!(m.role === 'tool' && other)) out.push(rest);
  }
  if (away.length) out.push({ role: 'user', content: [{ type: 'text', text: `${AWAY_HEADER}\n\n${away.join('\n\n')}` }] });
  return out;
}
