// A conversation for people on a terminal: a heading a message, its markdown rendered, each tool
// call one line (what it read, edited or ran, as its runtime's plug-in says, else its arguments as
// `key: value`); `verbose` adds the arguments, edits as unified diffs, the results and the thinking.
import type { ChalkInstance } from 'chalk';
import type { ToolReader } from '../api/search/effects.js';
import { ROLE_TITLES, resultText, type Block, type NeutralMessage, type ToolCallBlock } from '../core/neutral.js';
import { argEntries, argsLine, entryText } from '../core/tool-args.js';
import { editCounts, editDiff, patchDiff } from './edit-diff.js';
import { terminalMarkdown } from './terminal-markdown.js';
import { visible, visibleLines } from './style.js';

const ARGS_CHARS = 80;
const PAD = '    ';

export interface ConversationView {
  format: string;
  tools: ToolReader;
  chalk: ChalkInstance;
  verbose: boolean;
}

const indented = (text: string, pad: string) => text.split('\n').map((l) => (l ? pad + l : l)).join('\n');

/** A todo list's item as a checklist line. */
const CHECK = { completed: '[x]', in_progress: '[~]', cancelled: '[-]', pending: '[ ]' } as const;

/** ` (+3 −1)`; '' when it neither adds nor removes a line. */
function lineCounts(added = 0, removed = 0): string {
  const counts = [added && `+${added}`, removed && `−${removed}`].filter(Boolean);
  return counts.length ? ` (${counts.join(' ')})` : '';
}

/** `→ Edit src/a.ts (+3 −1)` (the lines its diff adds and removes), `→ Bash: $ npm test`, `→ Read src/a.ts`, `→ TodoWrite 1 of 3 done`, `→ Task (Explore) what for`, `→ WebSearch "query"`, else the name and its arguments as `key: value`, cut short. */
function callLine(call: ToolCallBlock, v: ConversationView): string {
  const c = v.chalk;
  const command = v.tools.command(v.format, call);
  const head = c.bold(`→ ${visible(call.name)}`);
  if (command !== undefined) {
    const [first, ...rest] = command.split('\n');
    return `${head}: ${c.cyan(`$ ${visible(first)}${rest.length ? ' …' : ''}`)}`;
  }
  const view = v.tools.view(v.format, call);
  if (view?.kind === 'todo') return `${head} ${view.items.filter((t) => t.status === 'completed').length} of ${view.items.length} done`;
  if (view?.kind === 'agent') return `${head}${view.agent ? ` (${visible(view.agent)})` : ''} ${visible(view.description)}`;
  if (view?.kind === 'edit') {
    const { added, removed } = editCounts(view);
    return `${head} ${visible(view.path)}${lineCounts(added, removed)}`;
  }
  const effects = v.tools.effects(v.format, call);
  if (effects.length) return `${head} ${effects.map((e) => `${visible(e.path)}${e.action === 'edit' || e.action === 'write' ? lineCounts(e.added?.length, e.removed?.length) : ''}`).join(', ')}`;
  if (view?.kind === 'brief') return `${head} ${visible(view.text)}`;
  if (view?.kind === 'read') return `${head} ${visible(view.path)}`;
  const args = visible(argsLine(call.input, ARGS_CHARS));
  return args ? `${head} ${c.dim(args)}` : head;
}

/** The detail `-v` shows under a call: an edit or patch as a unified diff, a file written as its lines, a todo list as a checklist, a subagent's prompt, a plan, else its arguments as `key: value` lines. */
function callDetail(call: ToolCallBlock, v: ConversationView): string {
  const c = v.chalk;
  const view = v.tools.view(v.format, call);
  if (view?.kind === 'todo') return view.items.map((t) => `${PAD}${CHECK[t.status]} ${visible(t.text)}`).join('\n');
  if (view?.kind === 'agent') return c.dim(indented(visibleLines(view.prompt), PAD));
  if (view?.kind === 'edit' || view?.kind === 'patch') return (view.kind === 'edit' ? editDiff(view, c) : patchDiff(view, c)).map((l) => PAD + l).join('\n');
  if (view?.kind === 'brief' && view.markdown !== undefined) return terminalMarkdown(view.markdown.trim(), c, PAD);
  const edits = v.tools.effects(v.format, call).filter((e) => e.added || e.removed);
  if (edits.length === 0) return c.dim(indented(visibleLines(argEntries(call.input).map(entryText).join('\n')), PAD));
  return edits
    .map((e) => [c.bold(`--- ${visible(e.path)}`), c.bold(`+++ ${visible(e.path)}`), ...(e.removed ?? []).map((l) => c.red(`-${visible(l)}`)), ...(e.added ?? []).map((l) => c.green(`+${visible(l)}`))].map((l) => PAD + l).join('\n'))
    .join('\n');
}

function block(b: Block, v: ConversationView): string | null {
  const c = v.chalk;
  switch (b.type) {
    case 'text':
      return b.text.trim() ? terminalMarkdown(b.text.trim(), c, '  ') : null;
    case 'thinking':
      return v.verbose && b.text.trim() ? c.dim.italic(indented(visibleLines(b.text.trim()), '  ')) : null;
    case 'image':
      return `  ${c.dim(`[image${b.media_type ? ` ${visible(b.media_type)}` : ''}]`)}`;
    case 'tool_call': {
      const detail = v.verbose ? callDetail(b, v) : '';
      return `  ${callLine(b, v)}${detail ? `\n${detail}` : ''}`;
    }
    case 'tool_result': {
      if (!v.verbose) return null;
      const text = resultText(b.content).replace(/\n+$/, '');
      return `  ${b.is_error ? c.red('← error') : c.bold('← result')}${text ? `\n${c.dim(indented(visibleLines(text), PAD))}` : ''}`;
    }
  }
}

const ROLE_COLOUR = { system: 'magenta', user: 'green', assistant: 'blue', tool: 'yellow' } as const;

/** Messages numbered from `first`; a message with nothing to show (tool results without -v) is left out. */
export function renderConversation(messages: readonly NeutralMessage[], v: ConversationView, first = 1): string {
  const c = v.chalk;
  const out: string[] = [];
  messages.forEach((m, i) => {
    const body = m.content.map((b) => block(b, v)).filter((s): s is string => s !== null);
    if (body.length === 0) return;
    const who = `${ROLE_TITLES[m.role]}${m.author ? ` (${visible(m.author)})` : ''}`;
    out.push(`${c[ROLE_COLOUR[m.role]].bold(`── ${first + i}. ${who}`)}${m.timestamp ? c.dim(` · ${visible(m.timestamp)}`) : ''}\n\n${body.join('\n\n')}\n`);
  });
  return out.join('\n');
}
