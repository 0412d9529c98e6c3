// Markdown for a terminal, small on purpose: headings, bold, inline code, lists, fenced code boxed
// with a bar. Everything else is shown as written. Input is store text: made inert before colouring.
import type { ChalkInstance } from 'chalk';
import { visibleLines } from './style.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** `**bold**` and `` `code` `` inside one line; the markers are dropped when they are rendered. */
function inline(line: string, c: ChalkInstance): string {
  return line.replace(/(`+)(.+?)\1|\*\*(.+?)\*\*/g, (_m, _ticks: string, code: string | undefined, bold: string | undefined) => (code !== undefined ? c.cyan(code.trim()) : c.bold(bold)));
}

function textLine(line: string, c: ChalkInstance): string {
  const heading = /^(#{1,6}) (.*)$/.exec(line);
  if (heading) return c.bold.underline(inline(heading[2], c));
  const item = /^(\s*)[-*+] (.*)$/.exec(line);
  if (item) return `${item[1]}  • ${inline(item[2], c)}`;
  const numbered = /^(\s*)(\d+[.)]) (.*)$/.exec(line);
  if (numbered) return `${numbered[1]}  ${numbered[2]} ${inline(numbered[3], c)}`;
  return inline(line, c);
}

/** Markdown text → terminal lines, each prefixed by `indent`. */
export function terminalMarkdown(text: string, c: ChalkInstance, indent = ''): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of visibleLines(text).split('\n')) {
    const f = FENCE.exec(line);
    if (fence === null && f) {
      fence = f[1];
      out.push(`${indent}${c.dim(`┌${f[2].trim() ? ` ${f[2].trim()}` : ''}`)}`);
    } else if (fence !== null && f && f[1][0] === fence[0] && f[1].length >= fence.length && f[2].trim() === '') {
      fence = null;
      out.push(`${indent}${c.dim('└')}`);
    } else if (fence !== null) out.push(`${indent}${c.dim('│')} ${line}`);
    else out.push(line === '' ? '' : `${indent}${textLine(line, c)}`);
  }
  if (fence !== null) out.push(`${indent}${c.dim('└')}`);
  return out.join('\n');
}
