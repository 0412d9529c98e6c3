// ctx's entries in a runtime's settings.json, merged with whatever else is there: Claude Code and
// Gemini CLI both keep hooks as `hooks: {<event>: [{matcher?, hooks: [{type: "command", command, …}]}]}`.
// ctx's entries are the command hooks that run `… hook <runtime>`. The file's text is edited in place
// (json-text.ts) and written by settings-file.ts, never through a link a repository planted.
import { existsSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BadInputError } from '../errors/index.js';
import type { HooksReport } from '../api/capture/runtime.js';
import { isEmptyObjectText, layoutOf, parseJsonText, removeJson, sameJson, setJson, type JsonText } from './json-text.js';
import { hasBackup, readBackup, readSettingsFile, removeSettingsFile, replaceSettingsFile, writeBackup, type SettingsFile } from './settings-file.js';

export interface HookEvent {
  event: string;
  matcher?: string;
}

/** What a runtime's hook settings hold for ctx: the events, and fields each ctx entry carries besides its command. */
export interface HookSpec {
  runtime: string;
  events: readonly HookEvent[];
  fields?: Record<string, unknown>;
  /** the runtime reads its settings.json with comments (Gemini CLI strips them; Claude Code does not) */
  comments?: boolean;
}

interface CommandHook {
  type: string;
  command?: string;
  [k: string]: unknown;
}
interface MatcherGroup {
  matcher?: string;
  hooks?: CommandHook[];
  [k: string]: unknown;
}
type Settings = Record<string, unknown> & { hooks?: Record<string, MatcherGroup[]> };

export function isCtxHook(spec: HookSpec, h: CommandHook | undefined): boolean {
  return h?.type === 'command' && typeof h.command === 'string' && h.command.endsWith(` hook ${spec.runtime}`) && /ctx/.test(h.command);
}

/** The project's settings: `<dir>/settings.json` at the git top level (else cwd). */
export function projectSettings(cwd: string, dir: string): string {
  return join(gitTopLevel(cwd) ?? resolve(cwd), dir, 'settings.json');
}

/** The nearest directory from `cwd` up that holds `.git`, or null. */
export function gitTopLevel(cwd: string): string | null {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

interface Read {
  file: SettingsFile;
  doc: JsonText;
  settings: Settings;
}

function read(spec: HookSpec, path: string): Read {
  const file = readSettingsFile(path);
  return { file, ...parse(spec, path, file.text ?? '') };
}

function parse(spec: HookSpec, path: string, text: string): { doc: JsonText; settings: Settings } {
  const doc = parseJsonText(path, text, Boolean(spec.comments));
  const settings = doc.value;
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) throw new BadInputError(`${path} is not a JSON object; nothing changed`);
  const hooks = (settings as Settings).hooks;
  if (hooks !== undefined && (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks))) throw new BadInputError(`${path}: "hooks" is not an object; nothing changed`);
  return { doc, settings: settings as Settings };
}

const serialize = (s: Settings) => `${JSON.stringify(s, null, 2)}\n`;

export function status(spec: HookSpec, path: string): HooksReport {
  const { settings } = read(spec, path);
  return { path, changed: false, events: installed(spec, settings) };
}

function installed(spec: HookSpec, settings: Settings): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const { event } of spec.events) {
    const groups = settings.hooks?.[event];
    const hook = (Array.isArray(groups) ? groups : []).flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks : [])).find((h) => isCtxHook(spec, h));
    out[event] = hook?.command ?? null;
  }
  return out;
}

/** Adds ctx's hook to each event; an older ctx entry gets the new command. Idempotent. Edits the text in place. */
export function install(spec: HookSpec, path: string, command: string): HooksReport {
  const { file } = read(spec, path);
  const backup = `${path}.ctx-backup`;
  hasBackup(backup); // a planted link there is refused before anything is written
  let text = file.text !== null && !isEmptyObjectText(file.text) ? file.text : null;
  let fresh: Settings = {};
  const layout = text === null ? null : layoutOf(text);
  for (const { event, matcher } of spec.events) {
    const entry = { ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command, ...spec.fields }] };
    if (text === null) {
      // a new (or empty) file: written whole, as ctx always has
      fresh = { ...fresh, hooks: { ...fresh.hooks, [event]: [entry] } };
      continue;
    }
    const groups = (parse(spec, path, text).settings.hooks ?? {})[event];
    if (groups === undefined) {
      text = setJson(text, ['hooks', event], [entry], { layout });
      continue;
    }
    if (!Array.isArray(groups)) throw new BadInputError(`${path}: "hooks.${event}" is not an array; nothing changed`);
    let found = false;
    groups.forEach((g, gi) => {
      (Array.isArray(g?.hooks) ? g.hooks : []).forEach((h, hi) => {
        if (!isCtxHook(spec, h)) return;
        found = true;
        for (const [key, value] of Object.entries({ ...spec.fields, command })) if (h[key] !== value) text = setJson(text!, ['hooks', event, gi, 'hooks', hi, key], value, { layout });
      });
    });
    if (!found) text = setJson(text, ['hooks', event], entry, { append: true, layout });
  }
  const out = text ?? serialize(fresh);
  const next = parse(spec, path, out).settings;
  if (out === file.text) return { path, changed: false, events: installed(spec, next) };
  writeBackup(backup, file);
  replaceSettingsFile(file, out);
  return { path, changed: true, events: installed(spec, next), ...(file.text !== null ? { backup } : {}) };
}

/** Removes exactly ctx's entries; when what is left is the backed-up original, restores its bytes. */
export function uninstall(spec: HookSpec, path: string): HooksReport {
  const { file, settings } = read(spec, path);
  const backup = `${path}.ctx-backup`;
  if (file.text === null) return { path, changed: false, events: installed(spec, settings) };
  const originalText = readBackup(backup);
  let { text, removed } = withoutCtx(spec, path, file.text);
  if (!removed) return { path, changed: false, events: installed(spec, settings) };
  const original = originalText === null ? null : tryParse(spec, path, originalText);
  const rest = parse(spec, path, text);
  if (rest.settings.hooks && Object.keys(rest.settings.hooks).length === 0 && original?.settings.hooks === undefined) text = removeJson(text, ['hooks']);
  const next = parse(spec, path, text);
  // an empty event or `hooks` ctx filled and then emptied is the original's still
  if (original && sameJson(parse(spec, path, withoutEmpty(spec, path, originalText!)).doc, parse(spec, path, withoutEmpty(spec, path, text)).doc)) {
    replaceSettingsFile(file, originalText!);
    unlinkSync(backup);
  } else if (!original && isEmptyObjectText(text)) removeSettingsFile(file, text); // ctx made the file; nothing else is in it
  else replaceSettingsFile(file, text);
  return { path, changed: true, events: installed(spec, next.settings) };
}

/** `text` without ctx's entries; a group or an event that only they filled goes with them. */
function withoutCtx(spec: HookSpec, path: string, text: string): { text: string; removed: boolean } {
  let removed = false;
  for (const [event, groups] of Object.entries(parse(spec, path, text).settings.hooks ?? {})) {
    if (!Array.isArray(groups)) continue;
    let left = groups.length;
    for (let gi = groups.length - 1; gi >= 0; gi--) {
      const hooks = Array.isArray(groups[gi]?.hooks) ? groups[gi].hooks! : [];
      const ours = hooks.flatMap((h, hi) => (isCtxHook(spec, h) ? [hi] : []));
      if (!ours.length) continue;
      removed = true;
      if (ours.length === hooks.length) {
        text = removeJson(text, ['hooks', event, gi]);
        left--;
      } else for (const hi of ours.reverse()) text = removeJson(text, ['hooks', event, gi, 'hooks', hi]);
    }
    if (left === 0 && groups.length) text = removeJson(text, ['hooks', event]);
  }
  return { text, removed };
}

/** `text` without empty event arrays and an empty `hooks`: for comparing with the original only. */
function withoutEmpty(spec: HookSpec, path: string, text: string): string {
  const hooks = parse(spec, path, text).settings.hooks;
  if (!hooks) return text;
  for (const [event, groups] of Object.entries(hooks)) if (Array.isArray(groups) && groups.length === 0) text = removeJson(text, ['hooks', event]);
  const left = parse(spec, path, text).settings.hooks;
  return left && Object.keys(left).length === 0 ? removeJson(text, ['hooks']) : text;
}

/** The backup as a document, or null when it no longer parses (then it is not the original). */
function tryParse(spec: HookSpec, path: string, text: string): { doc: JsonText; settings: Settings } | null {
  try {
    return parse(spec, path, text);
  } catch {
    return null;
  }
}
