// `ctx hooks install|uninstall|status claude-code`: ctx's entries in Claude Code's settings.json,
// merged with whatever else is there. ctx's entries are the command hooks that run `… hook claude-code`.
import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BadInputError } from '../../errors/index.js';
import type { HooksReport } from '../../api/runtime.js';
import { claudeConfigDir } from './paths.js';

/** The events ctx listens to, and the matcher each gets (SessionStart: only when there is history). */
export const HOOK_EVENTS: readonly { event: string; matcher?: string }[] = [
  { event: 'Stop' },
  { event: 'PreCompact' },
  { event: 'SessionEnd' },
  { event: 'SessionStart', matcher: 'resume|compact' },
];

const SUFFIX = ' hook claude-code';
/**
 * Seconds Claude Code gives ctx's hook before killing it. Without an explicit timeout it kills a
 * SessionEnd hook after 1.5 s, which under load lost the compaction only SessionEnd sees in print mode.
 */
export const HOOK_TIMEOUT_S = 30;

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

/**
 * Project: `.claude/settings.json` in cwd, the one a claude started there reads (Claude Code 2.1.330
 * reads no parent's, not even the git top level's); user: `$CLAUDE_CONFIG_DIR` or `~/.claude`.
 */
export function settingsPath(user: boolean, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  if (user) return join(claudeConfigDir(env), 'settings.json');
  return join(resolve(cwd), '.claude', 'settings.json');
}

/** Claude Code reads a project's settings only in the directory it starts in: not its parents', not its subdirectories'. */
export function covers(user: boolean, path: string): string {
  if (user) return `every claude session of this user (${path})`;
  const dir = dirname(dirname(path));
  return `claude sessions started in ${dir}, not in its subdirectories (Claude Code reads .claude/settings.json only where it starts): run this in each directory claude starts in, or use --user`;
}

export function isCtxHook(h: CommandHook | undefined): boolean {
  return h?.type === 'command' && typeof h.command === 'string' && h.command.endsWith(SUFFIX) && /ctx/.test(h.command);
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

function writeAtomic(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.ctx-tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export function status(path: string): HooksReport {
  const { settings } = read(path);
  return { path, changed: false, events: installed(settings) };
}

function installed(settings: Settings): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const { event } of HOOK_EVENTS) {
    const hook = (settings.hooks?.[event] ?? []).flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks : [])).find(isCtxHook);
    out[event] = hook?.command ?? null;
  }
  return out;
}

/** Adds ctx's hook to each event; an older ctx entry gets the new command. Idempotent. */
export function install(path: string, command: string): HooksReport {
  const { text, settings } = read(path);
  const next = structuredClone(settings);
  const hooks = (next.hooks ??= {});
  for (const { event, matcher } of HOOK_EVENTS) {
    const groups = (hooks[event] = Array.isArray(hooks[event]) ? hooks[event] : []);
    const existing = groups.flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks : [])).filter(isCtxHook);
    if (existing.length) {
      for (const h of existing) Object.assign(h, { command, timeout: HOOK_TIMEOUT_S });
      continue;
    }
    groups.push({ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_S }] });
  }
  const out = serialize(next);
  if (text !== null && JSON.stringify(next) === JSON.stringify(settings)) return { path, changed: false, events: installed(next) };
  const backup = `${path}.ctx-backup`;
  // the file as it was before ctx first touched it; a later install keeps that one
  if (text !== null && !existsSync(backup)) writeFileSync(backup, text);
  writeAtomic(path, out);
  return { path, changed: true, events: installed(next), ...(text !== null ? { backup } : {}) };
}

/** Removes exactly ctx's entries; when what is left is the backed-up original, restores its bytes. */
export function uninstall(path: string): HooksReport {
  const { text, settings } = read(path);
  if (text === null) return { path, changed: false, events: installed(settings) };
  const next = structuredClone(settings);
  for (const [event, groups] of Object.entries(next.hooks ?? {})) {
    if (!Array.isArray(groups)) continue;
    const kept: MatcherGroup[] = [];
    for (const g of groups) {
      if (!(Array.isArray(g?.hooks) && g.hooks.some(isCtxHook))) kept.push(g);
      else {
        const rest = g.hooks.filter((h) => !isCtxHook(h));
        if (rest.length) kept.push({ ...g, hooks: rest });
      }
    }
    if (kept.length === groups.length && kept.every((g, k) => g === groups[k])) continue;
    if (kept.length) next.hooks![event] = kept;
    else delete next.hooks![event];
  }
  if (next.hooks && Object.keys(next.hooks).length === 0 && !hadHooksKey(path)) delete next.hooks;
  if (JSON.stringify(next) === JSON.stringify(settings)) return { path, changed: false, events: installed(next) };
  const backup = `${path}.ctx-backup`;
  const original = existsSync(backup) ? read(backup) : null;
  if (original && JSON.stringify(original.settings) === JSON.stringify(next)) {
    writeAtomic(path, original.text!);
    unlinkSync(backup);
  } else if (!original && Object.keys(next).length === 0) {
    unlinkSync(path); // ctx made the file; nothing else is in it
  } else writeAtomic(path, serialize(next));
  return { path, changed: true, events: installed(next) };
}

/** Whether the original (the backup) had a `hooks` key: an empty one is then kept. */
function hadHooksKey(path: string): boolean {
  const backup = `${path}.ctx-backup`;
  return existsSync(backup) && read(backup).settings.hooks !== undefined;
}
