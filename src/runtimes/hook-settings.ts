// ctx's entries in a runtime's settings.json, merged with whatever else is there: Claude Code and
// Gemini CLI both keep hooks as `hooks: {<event>: [{matcher?, hooks: [{type: "command", command, …}]}]}`.
// ctx's entries are the command hooks that run `… hook <runtime>`.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BadInputError } from '../errors/index.js';
import type { HooksReport } from '../api/runtime.js';
import { writeAtomic } from './session-file.js';

export interface HookEvent {
  event: string;
  matcher?: string;
}

/** What a runtime's hook settings hold for ctx: the events, and fields each ctx entry carries besides its command. */
export interface HookSpec {
  runtime: string;
  events: readonly HookEvent[];
  fields?: Record<string, unknown>;
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

function gitTopLevel(cwd: string): string | null {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

function read(path: string): { text: string | null; settings: Settings } {
  if (!existsSync(path)) return { text: null, settings: {} };
  const text = readFileSync(path, 'utf8');
  let settings: unknown;
  try {
    settings = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    throw new BadInputError(`${path} is not JSON (${(e as Error).message}); nothing changed`);
  }
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) throw new BadInputError(`${path} is not a JSON object; nothing changed`);
  const hooks = (settings as Settings).hooks;
  if (hooks !== undefined && (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks))) throw new BadInputError(`${path}: "hooks" is not an object; nothing changed`);
  return { text, settings: settings as Settings };
}

const serialize = (s: Settings) => `${JSON.stringify(s, null, 2)}\n`;

export function status(spec: HookSpec, path: string): HooksReport {
  const { settings } = read(path);
  return { path, changed: false, events: installed(spec, settings) };
}

function installed(spec: HookSpec, settings: Settings): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const { event } of spec.events) {
    const hook = (settings.hooks?.[event] ?? []).flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks : [])).find((h) => isCtxHook(spec, h));
    out[event] = hook?.command ?? null;
  }
  return out;
}

/** Adds ctx's hook to each event; an older ctx entry gets the new command. Idempotent. */
export function install(spec: HookSpec, path: string, command: string): HooksReport {
  const { text, settings } = read(path);
  const next = structuredClone(settings);
  const hooks = (next.hooks ??= {});
  for (const { event, matcher } of spec.events) {
    const groups = (hooks[event] = Array.isArray(hooks[event]) ? hooks[event] : []);
    const existing = groups.flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks : [])).filter((h) => isCtxHook(spec, h));
    if (existing.length) {
      for (const h of existing) Object.assign(h, spec.fields, { command });
      continue;
    }
    groups.push({ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command, ...spec.fields }] });
  }
  const out = serialize(next);
  if (text !== null && JSON.stringify(next) === JSON.stringify(settings)) return { path, changed: false, events: installed(spec, next) };
  const backup = `${path}.ctx-backup`;
  // the file as it was before ctx first touched it; a later install keeps that one
  if (text !== null && !existsSync(backup)) writeFileSync(backup, text);
  writeAtomic(path, out);
  return { path, changed: true, events: installed(spec, next), ...(text !== null ? { backup } : {}) };
}

/** Removes exactly ctx's entries; when what is left is the backed-up original, restores its bytes. */
export function uninstall(spec: HookSpec, path: string): HooksReport {
  const { text, settings } = read(path);
  if (text === null) return { path, changed: false, events: installed(spec, settings) };
  const next = structuredClone(settings);
  for (const [event, groups] of Object.entries(next.hooks ?? {})) {
    if (!Array.isArray(groups)) continue;
    const kept: MatcherGroup[] = [];
    for (const g of groups) {
      if (!(Array.isArray(g?.hooks) && g.hooks.some((h) => isCtxHook(spec, h)))) kept.push(g);
      else {
        const rest = g.hooks.filter((h) => !isCtxHook(spec, h));
        if (rest.length) kept.push({ ...g, hooks: rest });
      }
    }
    if (kept.length === groups.length && kept.every((g, k) => g === groups[k])) continue;
    if (kept.length) next.hooks![event] = kept;
    else delete next.hooks![event];
  }
  if (next.hooks && Object.keys(next.hooks).length === 0 && !hadHooksKey(path)) delete next.hooks;
  if (JSON.stringify(next) === JSON.stringify(settings)) return { path, changed: false, events: installed(spec, next) };
  const backup = `${path}.ctx-backup`;
  const original = existsSync(backup) ? read(backup) : null;
  if (original && JSON.stringify(original.settings) === JSON.stringify(next)) {
    writeAtomic(path, original.text!);
    unlinkSync(backup);
  } else if (!original && Object.keys(next).length === 0) {
    unlinkSync(path); // ctx made the file; nothing else is in it
  } else writeAtomic(path, serialize(next));
  return { path, changed: true, events: installed(spec, next) };
}

/** Whether the original (the backup) had a `hooks` key: an empty one is then kept. */
function hadHooksKey(path: string): boolean {
  const backup = `${path}.ctx-backup`;
  return existsSync(backup) && read(backup).settings.hooks !== undefined;
}
