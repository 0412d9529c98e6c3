// ctx's MCP server in a runtime's JSON configuration (Claude Code's .mcp.json, Gemini CLI's
// settings.json, Copilot CLI's mcp-config.json, opencode.json): one entry named `ctx` in the
// runtime's servers object. The text is edited in place (json-text.ts), so every other byte stays;
// a link is refused rather than written through (a repository may plant one).
import { unlinkSync } from 'node:fs';
import { AlreadyExistsError, BadInputError } from '../errors/index.js';
import type { McpReport } from '../api/capture/runtime.js';
import { isEmptyObjectText, layoutOf, parseJsonText, removeJson, setJson } from './json-text.js';
import { readSettingsFile, replaceSettingsFile, type SettingsFile } from './settings-file.js';
import { lstatOrNull } from '../store/safe-write.js';
import { gitTopLevel } from './hook-settings.js';
import { resolve } from 'node:path';

/** The name of ctx's entry in every runtime's MCP configuration. */
export const SERVER = 'ctx';

/** How a runtime writes a server entry. */
export interface McpJsonSpec {
  /** the top-level key holding the servers: `mcpServers`, or opencode's `mcp` */
  key: string;
  /** the runtime reads the file with comments */
  comments: boolean;
  /** and with trailing commas */
  trailingCommas?: boolean;
  /** the entry that runs `argv` */
  entry(argv: string[]): Record<string, unknown>;
}

/** Where a project's configuration sits: the git top level, else `cwd`. */
export const projectRoot = (cwd: string): string => gitTopLevel(cwd) ?? resolve(cwd);

/** Whether `argv` runs ctx's MCP server: `mcp` after a word naming ctx. */
export function isCtxServer(argv: string[] | null): boolean {
  const at = argv?.indexOf('mcp') ?? -1;
  return at > 0 && argv!.slice(0, at).some((a) => /ctx/.test(a));
}

/** The file as it is; a link (or anything but a regular file) is refused: ctx does not write through it. */
export function readPlainFile(path: string): SettingsFile {
  if (lstatOrNull(path)?.isSymbolicLink()) throw new BadInputError(`${path} is a symbolic link: ctx does not write through it; add the entry by hand or replace the link with a file; nothing changed`);
  return readSettingsFile(path);
}

/** An entry's command line: `command` and `args`, or `command` as an array (opencode). */
export function argvOf(entry: unknown): string[] | null {
  if (!entry || typeof entry !== 'object') return null;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((a) => typeof a === 'string');
  if (strings(command)) return command;
  if (typeof command === 'string' && (args === undefined || strings(args))) return [command, ...((args as string[] | undefined) ?? [])];
  return null;
}

interface Read {
  file: SettingsFile;
  text: string;
  servers: Record<string, unknown> | undefined;
}

function read(spec: McpJsonSpec, path: string): Read {
  const file = readPlainFile(path);
  const text = file.text ?? '';
  const value = parseJsonText(path, text, spec.comments, spec.trailingCommas).value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new BadInputError(`${path} is not a JSON object; nothing changed`);
  const servers = (value as Record<string, unknown>)[spec.key];
  if (servers !== undefined && (servers === null || typeof servers !== 'object' || Array.isArray(servers))) throw new BadInputError(`${path}: "${spec.key}" is not an object; nothing changed`);
  return { file, text, servers: servers as Record<string, unknown> | undefined };
}

function report(path: string, entry: unknown, changed: boolean): McpReport {
  const argv = argvOf(entry);
  return { path, changed, command: isCtxServer(argv) ? argv : null };
}

/** The three actions of a runtime whose configuration is JSON. */
export function jsonSettings(spec: McpJsonSpec) {
  return { install: (path: string, argv: string[]) => install(spec, path, argv), uninstall: (path: string) => uninstall(spec, path), status: (path: string) => status(spec, path) };
}

export function status(spec: McpJsonSpec, path: string): McpReport {
  return report(path, read(spec, path).servers?.[SERVER], false);
}

/** Sets ctx's entry; an entry named ctx that runs something else is left alone and refused. */
export function install(spec: McpJsonSpec, path: string, argv: string[]): McpReport {
  const r = read(spec, path);
  const old = r.servers?.[SERVER];
  const entry = spec.entry(argv);
  if (old !== undefined && !isCtxServer(argvOf(old))) throw new AlreadyExistsError(`${path}: an MCP server named ${SERVER} is there and does not run ctx mcp: rename or remove it to install ctx's; nothing changed`);
  if (old !== undefined && JSON.stringify(old) === JSON.stringify(entry)) return report(path, old, false);
  const text = isEmptyObjectText(r.text) ? `${JSON.stringify({ [spec.key]: { [SERVER]: entry } }, null, 2)}\n` : setJson(r.text, [spec.key, SERVER], entry, { layout: layoutOf(r.text) });
  replaceSettingsFile(r.file, text);
  return report(path, entry, true);
}

/** Removes ctx's entry, and the servers object or the whole file when nothing else is left in them. */
export function uninstall(spec: McpJsonSpec, path: string): McpReport {
  const r = read(spec, path);
  const old = r.servers?.[SERVER];
  if (r.file.text === null || !isCtxServer(argvOf(old))) return report(path, old, false);
  let text = removeJson(r.text, [spec.key, SERVER]);
  if (Object.keys(r.servers!).length === 1) text = removeJson(text, [spec.key]);
  if (isEmptyObjectText(text)) unlinkSync(path);
  else replaceSettingsFile(r.file, text);
  return report(path, undefined, true);
}
