// `ctx hooks install|uninstall|status codex`: ctx as Codex's `notify` program, the top-level key of
// config.toml that Codex runs after every turn with the turn's JSON as its last argument. Only that
// key's lines are touched; every other byte of the file stays as it was. A notify program that is
// not ctx's is never replaced.
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { AlreadyExistsError, BadInputError } from '../../errors/index.js';
import type { HooksReport } from '../../api/runtime.js';
import { writeAtomic } from '../session-file.js';
import { codexHome } from './paths.js';

const EVENT = 'notify';
const SUFFIX = ['hook', 'codex'];

/**
 * `$CODEX_HOME/config.toml` (or `~/.codex`), with or without --user: Codex 0.169 runs the `notify`
 * of its user config only (measured: a project's `.codex/config.toml`, trusted or not, is not read for it).
 */
export function configPath(_user: boolean, _cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(codexHome(env), 'config.toml');
}

/** The top-level `notify = [...]` of a config.toml: its lines and its program's argv. */
interface NotifyKey {
  /** first line index, and the index after its last */
  from: number;
  to: number;
  argv: string[] | null;
}

export function findNotify(path: string, lines: string[]): NotifyKey | null {
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*\[/.test(lines[i])) return null; // the first table: top-level keys are before it
    const m = /^\s*notify\s*=/.exec(lines[i]);
    if (!m) continue;
    let text = lines[i].slice(m[0].length);
    let to = i + 1;
    while (!arrayClosed(text) && to < lines.length) text += `\n${lines[to++]}`;
    if (!arrayClosed(text)) throw new BadInputError(`${path}: line ${i + 1}: notify is not a TOML array; nothing changed`);
    return { from: i, to, argv: tomlStrings(text) };
  }
  return null;
}

/** Whether `text` (after `=`) holds a whole array: brackets balanced outside strings. */
function arrayClosed(text: string): boolean {
  let depth = 0;
  let seen = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#') i = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
    else if (c === '"' || c === "'") i = stringEnd(text, i);
    else if (c === '[') [depth, seen] = [depth + 1, true];
    else if (c === ']') depth--;
    if (seen && depth === 0) return true;
  }
  return !seen && text.trim() !== '';
}

function stringEnd(text: string, start: number): number {
  const q = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (q === '"' && text[i] === '\\') i++;
    else if (text[i] === q) return i;
  }
  return text.length;
}

/** The strings of a one-level TOML array of basic and literal strings; null when it is anything else. */
function tomlStrings(text: string): string[] | null {
  const body = /^\s*\[([\s\S]*)\]\s*(#.*)?$/.exec(text.trim());
  if (!body) return null;
  const out: string[] = [];
  const item = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(?:,|$)/y;
  const inner = body[1].replace(/#[^\n]*/g, '').trim();
  for (item.lastIndex = 0; item.lastIndex < inner.length; ) {
    const at = item.lastIndex;
    const m = item.exec(inner);
    if (!m || item.lastIndex === at) return null;
    try {
      out.push(m[2] ?? JSON.parse(`"${m[1]}"`));
    } catch {
      return null;
    }
  }
  return out;
}

/** ctx's notify program: `… ctx … hook codex`. */
export function isCtxNotify(argv: string[] | null): boolean {
  if (!argv || argv.length < 3) return false;
  return argv.slice(-2).join(' ') === SUFFIX.join(' ') && argv.slice(0, -2).some((a) => /ctx/.test(a));
}

/** The command ctx's hooks run (shell words, as `ctx hooks` builds it) as an argv. */
export function shellWords(command: string): string[] {
  const out: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      word = (word ?? '') + command.slice(i + 1, end === -1 ? command.length : end);
      i = end === -1 ? command.length : end;
    } else if (c === '\\' && i + 1 < command.length) word = (word ?? '') + command[++i];
    else if (/\s/.test(c)) {
      if (word !== null) out.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (word !== null) out.push(word);
  return out;
}

function read(path: string): { text: string | null; lines: string[]; key: NotifyKey | null } {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : null;
  const lines = (text ?? '').split('\n');
  return { text, lines, key: findNotify(path, lines) };
}

function report(path: string, key: NotifyKey | null, changed: boolean): HooksReport {
  return { path, changed, events: { [EVENT]: key && isCtxNotify(key.argv) ? key.argv!.join(' ') : null } };
}

export function status(path: string): HooksReport {
  return report(path, read(path).key, false);
}

export function install(path: string, command: string): HooksReport {
  const { text, lines, key } = read(path);
  const argv = shellWords(command);
  const line = `notify = ${JSON.stringify(argv)}`;
  if (key && !isCtxNotify(key.argv)) throw new AlreadyExistsError(`${path}: notify already runs another program (${lines.slice(key.from, key.to).join(' ').trim()}); nothing changed`);
  if (key && lines.slice(key.from, key.to).join('\n') === line) return report(path, key, false);
  if (key) lines.splice(key.from, key.to - key.from, line);
  else if (text === null || text === '') lines.splice(0, lines.length, line, '');
  else {
    // a top-level key goes before the first table
    const table = lines.findIndex((l) => /^\s*\[/.test(l));
    lines.splice(table === -1 ? lines.length - (lines[lines.length - 1] === '' ? 1 : 0) : table, 0, line);
  }
  writeAtomic(path, lines.join('\n'));
  return report(path, findNotify(path, lines), true);
}

export function uninstall(path: string): HooksReport {
  const { lines, key } = read(path);
  if (!key || !isCtxNotify(key.argv)) return report(path, key, false);
  lines.splice(key.from, key.to - key.from);
  const rest = lines.join('\n');
  if (rest.trim() === '') unlinkSync(path); // ctx's line was all there was
  else writeAtomic(path, rest);
  return report(path, null, true);
}
