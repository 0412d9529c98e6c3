// `ctx hooks install|uninstall|status codex`: ctx's command hooks in Codex's hooks.json (Stop,
// PreCompact, PostCompact, SessionEnd; Codex 0.171), each trusted in the user's config.toml (Codex
// skips an untrusted hook silently), and `notify` in config.toml for Codex versions before hooks.json.
// A turn then reaches `ctx hook codex` twice; the second capture finds nothing new and writes nothing.
import { dirname, join } from 'node:path';
import type { HooksReport } from '../../api/capture/runtime.js';
import * as hookSettings from '../hook-settings.js';
import { readSettingsFile } from '../settings-file.js';
import * as notify from './notify.js';
import { codexHome } from './paths.js';
import { trustKey, trustedKeys, writeTrust, type TrustedHook } from './trust.js';

/** Seconds Codex gives ctx's hook (its default is 600). */
export const HOOK_TIMEOUT_S = 30;

const SPEC: hookSettings.HookSpec = {
  runtime: 'codex',
  events: [{ event: 'Stop' }, { event: 'PreCompact' }, { event: 'PostCompact' }, { event: 'SessionEnd' }],
  fields: { timeout: HOOK_TIMEOUT_S },
};

/** User: `$CODEX_HOME/hooks.json` (or `~/.codex`); project: `.codex/hooks.json` at the git top level (else cwd). */
export function configPath(user: boolean, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return user ? join(codexHome(env), 'hooks.json') : join(dirname(hookSettings.projectSettings(cwd, '.codex')), 'hooks.json');
}

/** Codex reads a project's .codex/ only when the project is trusted; the user's hooks.json always. */
export function covers(user: boolean, path: string): string {
  if (user) return `every codex session of this user (${path})`;
  return `codex sessions in ${dirname(dirname(path))} once Codex trusts the project (its [projects."${dirname(dirname(path))}"] trust_level = "trusted"); notify, in the user's config.toml, covers every session`;
}

/** ctx's handlers in hooks.json, where they sit. */
function ctxHooks(path: string): TrustedHook[] {
  const text = readSettingsFile(path).text;
  if (text === null || text.trim() === '') return [];
  let doc: { hooks?: Record<string, { hooks?: { type?: string; command?: string; timeout?: unknown }[] }[]> };
  try {
    doc = JSON.parse(text);
  } catch {
    return []; // hookSettings refuses it with its reason
  }
  const out: TrustedHook[] = [];
  for (const { event } of SPEC.events) {
    const groups = doc?.hooks?.[event];
    if (!Array.isArray(groups)) continue;
    groups.forEach((g, group) =>
      (Array.isArray(g?.hooks) ? g.hooks : []).forEach((h, handler) => {
        if (!hookSettings.isCtxHook(SPEC, h as never)) return;
        out.push({ event, group, handler, command: h.command!, timeout: typeof h.timeout === 'number' ? h.timeout : 600 });
      }),
    );
  }
  return out;
}

const keys = (path: string, hooks: TrustedHook[]) => hooks.map((h) => trustKey(path, h));

function merged(json: HooksReport, n: HooksReport, changed: boolean): HooksReport {
  return { ...json, changed, events: { ...json.events, ...n.events } };
}

export function status(path: string): HooksReport {
  return merged(hookSettings.status(SPEC, path), notify.status(notify.configPath()), false);
}

export function install(path: string, command: string): HooksReport {
  const config = notify.configPath();
  hookSettings.status(SPEC, path); // a hooks.json ctx cannot read is refused before anything is written
  const n = notify.install(config, command);
  const before = keys(path, ctxHooks(path));
  const json = hookSettings.install(SPEC, path, command);
  const trusted = writeTrust(config, path, ctxHooks(path), before);
  return merged(json, n, json.changed || n.changed || trusted);
}

export function uninstall(path: string): HooksReport {
  const config = notify.configPath();
  // without its hooks.json, ctx's trust entries for it trust nothing: they go too
  const before = readSettingsFile(path).text === null ? trustedKeys(config, path, SPEC.events.map((e) => e.event)) : keys(path, ctxHooks(path));
  const json = hookSettings.uninstall(SPEC, path);
  const trusted = writeTrust(config, path, [], before);
  const n = notify.uninstall(config);
  return merged(json, n, json.changed || n.changed || trusted);
}
