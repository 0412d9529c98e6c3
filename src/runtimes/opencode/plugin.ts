// `ctx hooks install|uninstall|status opencode`: ctx's own plugin file, `.opencode/plugin/ctx.js` in
// the directory opencode runs in (user: `~/.config/opencode/plugin/ctx.js`). opencode loads every
// file there and hands it the bus's events; ctx's plugin, after each turn (session.idle, which also
// follows a compaction), reads the session through opencode's client and starts `ctx hook opencode`
// with it on stdin, detached: opencode never waits for ctx, and nothing ctx does can fail it.
import { dirname } from 'node:path';
import { BadInputError } from '../../errors/index.js';
import type { HooksReport } from '../../api/capture/runtime.js';
import { readSettingsFile, removeSettingsFile, replaceSettingsFile } from '../settings-file.js';

const MARKER = '// ctx-plugin v1: written by `ctx hooks install opencode`, removed by `ctx hooks uninstall opencode`';
export const EVENTS = ['session.idle'] as const;

/** The plugin; the only thing in it from outside is ctx's own command, as a JSON string literal. */
export function pluginSource(command: string): string {
  return `${MARKER}
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const COMMAND = ${JSON.stringify(command)};
const EVENTS = new Set(${JSON.stringify(EVENTS)});

export const CtxCapture = async ({ client, directory }) => ({
  event: async ({ event }) => {
    try {
      if (!EVENTS.has(event?.type)) return;
      const id = event.properties?.sessionID;
      if (typeof id !== 'string') return;
      const [info, messages] = await Promise.all([client.session.get({ path: { id } }), client.session.messages({ path: { id } })]);
      if (!info?.data || !Array.isArray(messages?.data)) return;
      const input = { hook_event_name: event.type, session_id: id, cwd: directory, session: { info: info.data, messages: messages.data } };
      // the hook reads a file, not a pipe: it outlives an \`opencode run\` that exits after the turn
      const dir = mkdtempSync(join(tmpdir(), 'ctx-opencode-'));
      let fd;
      try {
        writeFileSync(join(dir, 'hook.json'), JSON.stringify(input), { mode: 0o600, flag: 'wx' });
        fd = openSync(join(dir, 'hook.json'), 'r');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      try {
        const child = spawn('/bin/sh', ['-c', COMMAND], { cwd: directory, stdio: [fd, 'ignore', 'ignore'], detached: true });
        child.on('error', () => {});
        child.unref();
      } finally {
        closeSync(fd);
      }
    } catch {}
  },
});
`;
}

/** ctx's command in the plugin at `text`, or null when the file is not ctx's. */
function commandIn(text: string | null): string | null {
  if (text === null || text.split('\n')[0] !== MARKER) return null;
  const m = /^const COMMAND = (".*");$/m.exec(text);
  try {
    return m ? (JSON.parse(m[1]) as string) : null;
  } catch {
    return null;
  }
}

const report = (path: string, changed: boolean, command: string | null): HooksReport => ({ path, changed, events: Object.fromEntries(EVENTS.map((e) => [e, command])) });

export function status(path: string): HooksReport {
  return report(path, false, commandIn(readSettingsFile(path).text));
}

export function install(path: string, command: string): HooksReport {
  const file = readSettingsFile(path);
  if (file.text !== null && commandIn(file.text) === null) throw new BadInputError(`${path} is there and is not ctx's plugin: move it away and install again; nothing changed`);
  const text = pluginSource(command);
  if (file.text === text) return report(path, false, command);
  replaceSettingsFile(file, text);
  return report(path, true, command);
}

export function uninstall(path: string): HooksReport {
  const file = readSettingsFile(path);
  if (commandIn(file.text) === null) return report(path, false, null);
  removeSettingsFile(file, '');
  return report(path, true, null);
}

export function covers(user: boolean, path: string): string {
  return user ? 'every opencode session of this user' : `opencode sessions run in ${dirname(dirname(dirname(path)))}`;
}
