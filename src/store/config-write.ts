// Writing the context repo's own git config: `git config -f` when git is on PATH, else a small
// writer of our own that edits whole sections (enough for `[remote "<name>"]`).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CtxError } from '../errors/index.js';
import { gitOnPath } from './engine-select.js';
import { spawnGitSync } from './git-process.js';
import { checkConfig } from './repo.js';

/** A `[section "sub"]` with its keys; values may repeat (`fetch`). */
export interface ConfigSection {
  section: string;
  subsection: string;
  entries: readonly [key: string, value: string][];
}

/** Replace (or add) a whole subsection, e.g. `remote "origin"`. */
export function writeSection(gitdir: string, s: ConfigSection): void {
  checkConfig(gitdir);
  const file = join(gitdir, 'config');
  if (gitOnPath()) {
    const name = `${s.section}.${s.subsection}`;
    gitConfig(file, ['--remove-section', name], true);
    for (const [k, v] of s.entries) gitConfig(file, ['--add', `${name}.${k}`, v]);
    return;
  }
  const text = removeSectionText(readText(file), s.section, s.subsection);
  const body = s.entries.map(([k, v]) => `\t${k} = ${quote(v)}\n`).join('');
  atomicWrite(file, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}[${s.section} "${escape(s.subsection)}"]\n${body}`);
}

/** Remove a whole subsection; false when it was not there. */
export function removeSection(gitdir: string, section: string, subsection: string): boolean {
  checkConfig(gitdir);
  const file = join(gitdir, 'config');
  const before = readText(file);
  const after = removeSectionText(before, section, subsection);
  if (after === before) return false;
  if (gitOnPath()) gitConfig(file, ['--remove-section', `${section}.${subsection}`]);
  else atomicWrite(file, after);
  return true;
}

function gitConfig(file: string, args: string[], mayFail = false) {
  const r = spawnGitSync(['config', '-f', file, ...args], { encoding: 'utf8' });
  if (r.status !== 0 && !mayFail) throw new CtxError(`git config: ${(r.stderr || '').trim() || `exit ${r.status}`}`);
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function atomicWrite(file: string, text: string) {
  writeFileSync(`${file}.lock`, text, { flag: 'w' });
  renameSync(`${file}.lock`, file);
}

/** Drop `[section "sub"]` and its lines up to the next section header. */
function removeSectionText(text: string, section: string, subsection: string): string {
  const out: string[] = [];
  let skipping = false;
  for (const line of text.split(/(?<=\n)/)) {
    const head = /^\s*\[([^\]\s"]+)(?:\s+"((?:[^"\\]|\\.)*)")?\]/.exec(line);
    if (head) skipping = head[1].toLowerCase() === section.toLowerCase() && (head[2] ?? '').replace(/\\(.)/g, '$1') === subsection;
    if (!skipping) out.push(line);
  }
  return out.join('');
}

const escape = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
const quote = (v: string) => (/^[^\s"\\#;][^"\\#;]*$/.test(v) && !/\s$/.test(v) ? v : `"${escape(v)}"`);
