// Codex (0.171) runs a hooks.json hook only when config.toml trusts it: a table
// `[hooks.state."<hooks.json path>:<event, snake_case>:<group>:<handler>"]` whose `trusted_hash` is
// `sha256:` + the hex sha256 of the hook's identity as compact JSON with sorted keys (codex-rs
// hooks: event_name, the group's matcher when it has one, its one handler with Codex's defaults).
// Only ctx's tables are written or removed; a re-parse proves no other key changed.
import { createHash } from 'node:crypto';
import { BadInputError } from '../../errors/index.js';
import { readSettingsFile, removeSettingsFile, replaceSettingsFile } from '../settings-file.js';
import { parseToml, sameToml, splitLines, type TomlTable } from './config-toml.js';

/** One hook handler of hooks.json, where it sits. */
export interface TrustedHook {
  event: string;
  group: number;
  handler: number;
  command: string;
  timeout: number;
}

const snake = (event: string) => event.replace(/(?<=[a-z])(?=[A-Z])/g, '_').toLowerCase();

/** The key Codex looks the hook's trust up by. */
export const trustKey = (hooksJson: string, h: TrustedHook) => `${hooksJson}:${snake(h.event)}:${h.group}:${h.handler}`;

/** What Codex hashes: `{"event_name","hooks":[{"async","command","timeout","type"}]}`, keys sorted, no spaces. */
export function trustHash(h: TrustedHook): string {
  const identity = `{"event_name":${JSON.stringify(snake(h.event))},"hooks":[{"async":false,"command":${JSON.stringify(h.command)},"timeout":${h.timeout},"type":"command"}]}`;
  return `sha256:${createHash('sha256').update(identity).digest('hex')}`;
}

/** The trust keys config.toml holds for hooks at `hooksJson` of these events, at any position (a hooks.json that is gone trusts nothing). */
export function trustedKeys(config: string, hooksJson: string, events: readonly string[]): string[] {
  const text = readSettingsFile(config).text;
  if (text === null) return [];
  const names = new Set(events.map(snake));
  return Object.keys(stateOf(parseToml(config, text))).filter((k) => {
    if (!k.startsWith(`${hooksJson}:`)) return false;
    const m = /^([a-z_]+):\d+:\d+$/.exec(k.slice(hooksJson.length + 1));
    return m !== null && names.has(m[1]);
  });
}

const header = (key: string) => `[hooks.state.${JSON.stringify(key)}]`;

/** The line ranges [from, to) of the tables `[hooks.state."<key>"]` for these keys: a header up to the next header. */
function tables(lines: string[], keys: Set<string>): { from: number; to: number; key: string }[] {
  const out: { from: number; to: number; key: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const key = [...keys].find((k) => lines[i].trim() === header(k));
    if (key === undefined) continue;
    let to = i + 1;
    while (to < lines.length && !lines[to].trimStart().startsWith('[')) to++;
    out.push({ from: i, to, key });
  }
  return out;
}

function stateOf(doc: TomlTable): TomlTable {
  const hooks = doc.hooks as TomlTable | undefined;
  return ((hooks && typeof hooks === 'object' ? hooks.state : undefined) ?? {}) as TomlTable;
}

function withState(doc: TomlTable, state: TomlTable): TomlTable {
  const hooks = { ...((doc.hooks as TomlTable | undefined) ?? {}), state };
  if (Object.keys(state).length === 0) delete (hooks as TomlTable).state;
  const out = { ...doc, hooks };
  if (Object.keys(hooks).length === 0) delete (out as TomlTable).hooks;
  return out;
}

/**
 * config.toml trusting exactly `hooks` (ctx's, now) among the keys `ours` (ctx's, before and now):
 * ctx's old tables are taken out, the new ones appended. Returns whether the file changed.
 */
export function writeTrust(config: string, hooksJson: string, hooks: TrustedHook[], ours: string[]): boolean {
  const file = readSettingsFile(config);
  const text = file.text ?? '';
  const doc = parseToml(config, text);
  const want = new Map(hooks.map((h) => [trustKey(hooksJson, h), trustHash(h)]));
  const state = stateOf(doc);
  const stale = new Set(ours.filter((k) => Object.hasOwn(state, k)));
  for (const k of want.keys()) if (Object.hasOwn(state, k)) stale.add(k);
  // already as wanted: nothing to write
  if ([...stale].every((k) => want.has(k)) && [...want].every(([k, v]) => (state[k] as TomlTable | undefined)?.trusted_hash === v)) return false;
  const lines = splitLines(text);
  const found = tables(lines, stale);
  if (found.length !== stale.size) throw new BadInputError(`${config}: ctx's hooks.state entries are not tables of their own; nothing changed`);
  for (const t of found.sort((a, b) => b.from - a.from)) lines.splice(t.from, t.to - t.from);
  let rest = lines.join('');
  // the blank line ctx put before its tables goes with them
  if (found.length) rest = rest.replace(/\n\n+$/, '\n');
  const added = [...want].map(([k, v]) => `${header(k)}\ntrusted_hash = ${JSON.stringify(v)}\n`).join('\n');
  if (added) rest = rest === '' ? added : `${rest.replace(/\n*$/, '\n')}\n${added}`;
  const nextState: TomlTable = { ...state };
  for (const k of stale) delete nextState[k];
  for (const [k, v] of want) nextState[k] = { trusted_hash: v };
  if (!sameToml(parseToml(config, rest), withState(doc, nextState))) throw new BadInputError(`${config}: trusting ctx's hooks would change other keys; nothing changed`);
  if (rest.trim() === '') removeSettingsFile(file, rest);
  else replaceSettingsFile(file, rest);
  return true;
}
