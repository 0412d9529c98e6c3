/// <reference lib="dom" />
// Code highlighted by highlight.js's core with the languages registered here only (the whole
// library is ~1 MB): what transcripts mostly hold. A language it lacks, or too much code, stays plain.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import ini from 'highlight.js/lib/languages/ini';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { h } from './dom.js';

for (const [name, lang] of Object.entries({ bash, c, cpp, css, diff, go, ini, java, javascript, json, markdown, python, ruby, rust, shell, sql, typescript, xml, yaml })) hljs.registerLanguage(name, lang);

/** Characters past which code is shown plain: highlighting is the costliest part of drawing a message. */
const MOST = 50_000;

/** File extensions (and names) → the language they hold. */
const BY_EXTENSION: Record<string, string> = {
  sh: 'bash', bash: 'bash', zsh: 'bash', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', hpp: 'cpp', css: 'css', diff: 'diff', patch: 'diff', go: 'go', java: 'java',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript', json: 'json', jsonl: 'json', md: 'md', py: 'python', rb: 'ruby', rs: 'rust',
  sql: 'sql', ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript', html: 'xml', xml: 'xml', svg: 'xml', yml: 'yaml', yaml: 'yaml', toml: 'ini',
};

/** The language of a file by its name; undefined when none registered fits. */
export function languageOf(path: string): string | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  const lang = ext === undefined ? undefined : BY_EXTENSION[ext];
  return lang !== undefined && hljs.getLanguage(lang) ? lang : undefined;
}

/** Code as highlighted HTML (escaped by highlight.js), or null when it stays plain text. */
export function highlighted(code: string, lang: string | undefined): string | null {
  if (!lang || code.length > MOST || !hljs.getLanguage(lang)) return null;
  return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
}

/** A `<pre><code>` of the code, highlighted when it can be. */
export function codeBlock(code: string, lang: string | undefined, cls = 'code'): HTMLElement {
  const el = h('code', lang ? { class: `hljs language-${lang}` } : { class: 'hljs' });
  const html = highlighted(code, lang);
  if (html === null) el.textContent = code;
  else el.innerHTML = html;
  return h('pre', { class: cls }, el);
}
