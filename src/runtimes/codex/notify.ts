// ctx as Codex's `notify` program (what Codex before hooks.json runs; settings.ts installs it beside hooks.json), the top-level key of
// config.toml that Codex runs after every turn with the turn's JSON as its last argument. The file is
// parsed as TOML; only that key's statement is touched, every other byte stays as it was, and a
// notify that is not ctx's (another program, a table, a dotted key) is never replaced.
import { join } from 'node:path';
import { AlreadyExistsError, BadInputError } from '../../errors/index.js';
import type { HooksReport } from '../../api/capture/runtime.js';
import { readSettingsFile, removeSettingsFile, replaceSettingsFile, type SettingsFile } from '../settings-file.js';
import { parseToml, sameToml, splitLines, topLevel, type Statement, type TomlTable } from './config-toml.js';
import { codexHome } from './paths.js';

const EVENT = 'notify';
const SUFFIX = ['hook', 'codex'];

/**
 * `$CODEX_HOME/config.toml` (or `~/.codex`), with or without --user: Codex 0.169 runs the `notify`
 * of its user config only (measured: a project's `.codex/config.toml`, trusted or not, is not read for it).
 */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(codexHome(env), 'config.toml');
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

/** A top-level `notify` as the parser sees it, and the statement (lines) that sets it when there is one. */
interface Read {
  file: SettingsFile;
  lines: string[];
  doc: TomlTable;
  notify: unknown;
  /** the one statement that sets it, if one does */
  statement: Statement | null;
  /** every top-level statement that sets part of it (dotted keys can be several) */
  setting: Statement[];
  header: number;
}

function read(path: string): Read {
  const file = readSettingsFile(path);
  const text = file.text ?? '';
  const doc = parseToml(path, text);
  const lines = splitLines(text);
  const { statements, header } = topLevel(lines);
  const setting = statements.filter((s) => Object.hasOwn(s.keys, EVENT));
  return { file, lines, doc, notify: doc[EVENT], statement: setting.length === 1 ? setting[0] : null, setting, header };
}

const argvOf = (v: unknown): string[] | null => (Array.isArray(v) && v.every((a) => typeof a === 'string') ? v : null);

function report(path: string, notify: unknown, changed: boolean): HooksReport {
  const argv = argvOf(notify);
  return { path, changed, events: { [EVENT]: isCtxNotify(argv) ? argv!.join(' ') : null } };
}

export function status(path: string): HooksReport {
  return report(path, read(path).notify, false);
}

/** What the user's notify is, in their words, for a message: its statement, one line, cut short. */
function shown(r: Read): string {
  const first = r.setting[0];
  const text = first ? r.lines.slice(first.from, first.to).join(' ').replace(/\s+/g, ' ').trim() : `[${EVENT}]`;
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

export function install(path: string, command: string): HooksReport {
  const r = read(path);
  const argv = shellWords(command);
  const line = `notify = ${JSON.stringify(argv)}`;
  if (r.notify !== undefined && !isCtxNotify(argvOf(r.notify))) {
    if (argvOf(r.notify)) throw new AlreadyExistsError(`${path}: notify already runs another program (${shown(r)}); nothing changed`);
    throw new AlreadyExistsError(`${path}: notify is already set and is not a program's argv (${shown(r)}): remove it to install ctx's; nothing changed`);
  }
  const lines = [...r.lines];
  const eol = r.file.text?.includes('\r\n') ? '\r\n' : '\n';
  if (r.statement) {
    const old = lines.slice(r.statement.from, r.statement.to).join('');
    const end = /\r?\n$/.exec(old)?.[0] ?? '';
    if (old === line + end) return report(path, r.notify, false);
    lines.splice(r.statement.from, r.statement.to - r.statement.from, line + end);
  } else if (r.file.text === null || r.file.text === '') lines.splice(0, lines.length, line + eol);
  else if (r.header < lines.length) lines.splice(r.header, 0, line + eol); // a top-level key goes before the first table
  else if (/\n$/.test(lines[lines.length - 1])) lines.push(line + eol);
  else lines.push(eol + line); // the file ends without a newline: so does it with ctx's line
  const text = lines.join('');
  if (!sameToml(parseToml(path, text), { ...r.doc, [EVENT]: argv })) throw new BadInputError(`${path}: adding notify would change other keys; nothing changed`);
  replaceSettingsFile(r.file, text);
  return report(path, argv, true);
}

export function uninstall(path: string): HooksReport {
  const r = read(path);
  if (r.file.text === null || !isCtxNotify(argvOf(r.notify)) || !r.statement) return report(path, r.notify, false);
  const lines = [...r.lines];
  const { from, to } = r.statement;
  lines.splice(from, to - from);
  // ctx's line was the last and the file had no final newline before it: take the one it added
  if (to === r.lines.length && from > 0 && !/\n$/.test(r.lines[to - 1])) lines[from - 1] = lines[from - 1].replace(/\r?\n$/, '');
  const rest = lines.join('');
  const { [EVENT]: _, ...others } = r.doc;
  if (!sameToml(parseToml(path, rest), others)) throw new BadInputError(`${path}: removing notify would change other keys; nothing changed`);
  if (rest.trim() === '') removeSettingsFile(r.file, rest); // ctx's line was all there was
  else replaceSettingsFile(r.file, rest);
  return report(path, undefined, true);
}
