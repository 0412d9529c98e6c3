/// <reference lib="dom" />
// A message's text as people read chat: markdown (markdown-it) with highlighted code blocks. Raw
// HTML in a transcript is never parsed (html: false escapes it), links go only to http(s) and mailto
// addresses, and images in markdown are not loaded (a transcript never makes the page fetch). Tags a
// runtime wraps context in (`<ide_selection>…</ide_selection>`, `<system-reminder>`) fold under their name.
import MarkdownIt from 'markdown-it';
import { highlighted } from './highlight.js';
import { h } from './dom.js';

const md: MarkdownIt = new MarkdownIt({
  html: false,
  linkify: false,
  breaks: false,
  highlight: (code, lang) => {
    const html = highlighted(code, lang.toLowerCase().split(/\s/)[0] || undefined);
    // markdown-it escapes the code itself when this returns ''
    return html === null ? '' : `<pre class="code"><code class="hljs language-${md.utils.escapeHtml(lang)}">${html}</code></pre>`;
  },
});
md.disable('image');
md.validateLink = (url) => /^(https?:|mailto:)/i.test(url.trim());
// a link opens outside the view, and tells the site nothing
const linkOpen = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  tokens[i].attrSet('rel', 'noopener noreferrer nofollow');
  tokens[i].attrSet('target', '_blank');
  return linkOpen(tokens, i, options, env, self);
};

/** Emphasis and code spans only, no links, no HTML: a one-line title (a first prompt, a summary) inside a link or a heading. */
const titleMd: MarkdownIt = new MarkdownIt('zero').enable(['emphasis', 'backticks', 'strikethrough']);

/** A title with its `**bold**` and `code` drawn, as the message it comes from draws them. */
export function inline(text: string): DocumentFragment {
  const t = document.createElement('template');
  t.innerHTML = titleMd.renderInline(text);
  return t.content;
}

/** Characters past which a text is shown as it is: markdown over megabytes would stall the page. */
const MOST = 200_000;

/** A whole-line `<name>` … `</name>` block: the tags a runtime wraps context in. */
const WRAPPED = /^<([A-Za-z][\w.-]*)(?:\s[^>\n]*)?>\n?([\s\S]*?)\n?<\/\1>[ \t]*$/gm;

/** A line opening or closing a fenced code block. */
const FENCE = /^ {0,3}(```|~~~)/gm;

/** The text as markdown in `el` (class `text md`); wrapped blocks as folded details. */
export function markdown(text: string, cls = 'text md'): HTMLElement {
  const el = h('div', { class: cls });
  if (text.length > MOST) {
    el.classList.add('plain');
    el.textContent = text;
    return el;
  }
  let at = 0;
  for (const m of text.matchAll(WRAPPED)) {
    // a tag inside a fenced code block is the block's text
    if (m.index! < at || (text.slice(0, m.index).match(FENCE)?.length ?? 0) % 2 === 1) continue;
    if (m.index! > at) el.append(rendered(text.slice(at, m.index)));
    el.append(h('details', { class: 'wrapped', 'data-tag': m[1] }, h('summary', {}, m[1]), h('pre', {}, m[2])));
    at = m.index! + m[0].length;
  }
  if (at < text.length) el.append(rendered(text.slice(at)));
  return el;
}

function rendered(text: string): DocumentFragment {
  const t = document.createElement('template');
  t.innerHTML = text.trim() === '' ? '' : md.render(text).trimEnd();
  return t.content;
}
