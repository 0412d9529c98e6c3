/// <reference lib="dom" />
// Terminal output with its colours (ansi_up: text escaped, the 16 colours as classes
// conversation.css themes, links only to http(s)); output without escape codes stays a text node.
import { AnsiUp } from 'ansi_up';

const ansi = new AnsiUp();
ansi.use_classes = true;

/** Fills `el` with the output: coloured spans when it holds escape codes, else the text itself. */
export function ansiInto(el: HTMLElement, text: string): HTMLElement {
  if (!text.includes('\x1b')) {
    el.textContent = text;
    return el;
  }
  // parsed inert, then each style attribute (bold, 256 colours) set through the CSSOM, which the page's
  // Content-Security-Policy (style-src 'self') allows where it refuses style attributes
  const t = document.createElement('template');
  t.innerHTML = ansi.ansi_to_html(text).replace(/ style="([^"]*)"/g, ' data-style="$1"');
  for (const span of t.content.querySelectorAll<HTMLElement>('[data-style]')) {
    span.style.cssText = span.dataset.style!;
    delete span.dataset.style;
  }
  el.replaceChildren(t.content);
  return el;
}
