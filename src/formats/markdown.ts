// markdown: output only (rendering tier): what the context knew, for people. One heading a message,
// thinking folded in <details>, tool calls one line each, tool results cut to their first lines.
import { ROLE_TITLES as TITLES, resultText, type Block, type NeutralMessage } from '../core/neutral.js';
import { argsLine } from '../core/tool-args.js';

const INPUT_CHARS = 200;
const RESULT_LINES = 5;

/** A code fence longer than any backtick run inside the text. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

/** An inline code span that holds any text. */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return longest ? `${ticks} ${text} ${ticks}` : `${ticks}${text}${ticks}`;
}

function block(b: Block): string {
  switch (b.type) {
    case 'text':
      return b.text.trim();
    case 'thinking':
      return `<details><summary>Thinking</summary>\n\n${b.text.trim()}\n\n</details>`;
    case 'image':
      return `*[image${b.media_type ? `: ${b.media_type}` : ''}${b.url ? ` ${b.url}` : ''}]*`;
    case 'tool_call':
      return `**→ ${b.name}** ${code(b.id)} ${code(argsLine(b.input, INPUT_CHARS).replace(/\s*\n\s*/g, ' '))}`;
    case 'tool_result': {
      const lines = resultText(b.content).split('\n');
      const more = lines.length > RESULT_LINES ? `\n*… ${lines.length - RESULT_LINES} more lines*` : '';
      return `**← ${code(b.call_id)}**${b.is_error ? ' (error)' : ''}\n\n${fenced(lines.slice(0, RESULT_LINES).join('\n'))}${more}`;
    }
  }
}

/** `first`: the number of the first message (a slice of a context keeps its messages' places). */
export function renderMarkdown(messages: readonly NeutralMessage[], first = 1): Uint8Array {
  const parts = ['# Context\n'];
  messages.forEach((m, i) => {
    const who = `${TITLES[m.role]}${m.author ? ` (${m.author})` : ''}`;
    parts.push(`## ${first + i}. ${who}${m.timestamp ? ` · ${m.timestamp}` : ''}\n`);
    for (const b of m.content) {
      const text = block(b);
      if (text) parts.push(`${text}\n`);
    }
  });
  return Buffer.from(parts.join('\n'));
}
