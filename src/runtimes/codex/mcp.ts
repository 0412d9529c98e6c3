// Where Codex reads MCP servers: the table `[mcp_servers.ctx]` (`command`, `args`) in the user's
// `$CODEX_HOME/config.toml`, or in a project's `.codex/config.toml` at the git top level (read once
// Codex trusts the project). ctx's table is appended whole and removed whole; a re-parse proves no
// other key changed, so every other byte stays.
import { dirname, join } from 'node:path';
import { AlreadyExistsError, BadInputError, CtxError } from '../../errors/index.js';
import type { McpReport, McpSettings } from '../../api/capture/runtime.js';
import { argvOf, isCtxServer, projectRoot, readPlainFile, SERVER } from '../mcp-json.js';
import { replaceSettingsFile, removeSettingsFile, type SettingsFile } from '../settings-file.js';
import { parseToml, sameToml, splitLines, type TomlTable } from './config-toml.js';
import { codexHome } from './paths.js';

const HEADER = `[mcp_servers.${SERVER}]`;

interface Read {
  file: SettingsFile;
  text: string;
  doc: TomlTable;
  servers: TomlTable | undefined;
}

function read(path: string): Read {
  const file = readPlainFile(path);
  const text = file.text ?? '';
  const doc = parseToml(path, text);
  const servers = doc.mcp_servers;
  if (servers !== undefined && (servers === null || typeof servers !== 'object' || Array.isArray(servers))) throw new BadInputError(`${path}: mcp_servers is not a table; nothing changed`);
  return { file, text, doc, servers: servers as TomlTable | undefined };
}

function report(path: string, entry: unknown, changed: boolean): McpReport {
  const argv = argvOf(entry);
  return { path, changed, command: isCtxServer(argv) ? argv : null };
}

/** `text` without ctx's table (its header up to the next header), and the blank line ctx put before it. */
function withoutTable(path: string, text: string): string {
  const lines = splitLines(text);
  const from = lines.findIndex((l) => l.trim() === HEADER);
  if (from === -1) throw new BadInputError(`${path}: mcp_servers.${SERVER} is not a table of its own (${HEADER}): edit it by hand; nothing changed`);
  let to = from + 1;
  while (to < lines.length && !lines[to].trimStart().startsWith('[')) to++;
  lines.splice(from, to - from);
  const rest = lines.join('');
  return to === splitLines(text).length ? rest.replace(/\n\n+$/, '\n') : rest;
}

/** The document after an edit, checked to be `want`: anything else is refused and nothing is written. */
function checked(path: string, text: string, want: TomlTable): string {
  let got: TomlTable;
  try {
    got = parseToml(path, text);
  } catch (e) {
    if (!(e instanceof CtxError)) throw e;
    got = {};
  }
  const servers = want.mcp_servers as TomlTable | undefined;
  // an `mcp_servers` ctx's table alone made goes with it
  if (servers && Object.keys(servers).length === 0 && got.mcp_servers === undefined) delete want.mcp_servers;
  if (!sameToml(got, want)) throw new BadInputError(`${path}: editing ${HEADER} would change other keys (is mcp_servers an inline table?): edit it by hand; nothing changed`);
  return text;
}

export function status(path: string): McpReport {
  return report(path, read(path).servers?.[SERVER], false);
}

export function install(path: string, argv: string[]): McpReport {
  const r = read(path);
  const old = r.servers?.[SERVER];
  const [command, ...args] = argv;
  const entry = { command, args };
  if (old !== undefined && !isCtxServer(argvOf(old))) throw new AlreadyExistsError(`${path}: an MCP server named ${SERVER} is there and does not run ctx mcp: rename or remove it to install ctx's; nothing changed`);
  if (old !== undefined && sameToml(old, entry)) return report(path, old, false);
  const rest = old === undefined ? r.text : withoutTable(path, r.text);
  const table = `${HEADER}\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\n`;
  const text = rest.trim() === '' ? table : `${rest.replace(/\n*$/, '\n')}\n${table}`;
  replaceSettingsFile(r.file, checked(path, text, { ...r.doc, mcp_servers: { ...r.servers, [SERVER]: entry } }));
  return report(path, entry, true);
}

export function uninstall(path: string): McpReport {
  const r = read(path);
  const old = r.servers?.[SERVER];
  if (r.file.text === null || !isCtxServer(argvOf(old))) return report(path, old, false);
  const { [SERVER]: _, ...others } = r.servers!;
  const text = checked(path, withoutTable(path, r.text), { ...r.doc, mcp_servers: others });
  if (text.trim() === '') removeSettingsFile(r.file, text);
  else replaceSettingsFile(r.file, text);
  return report(path, undefined, true);
}

export const mcp: McpSettings = {
  path: (user, cwd, env) => (user ? join(codexHome(env), 'config.toml') : join(projectRoot(cwd), '.codex', 'config.toml')),
  install,
  uninstall,
  status,
  covers: (user, path) => (user ? `every codex session of this user (${path})` : `codex sessions in ${dirname(dirname(path))} once Codex trusts the project (its [projects."…"] trust_level = "trusted")`),
};
