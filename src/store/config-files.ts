// Reading git config files with their includes: a store's own (through git when it is on PATH, so
// includeIf is judged by git) and the user's (system, global, GIT_CONFIG_COUNT), where trust is set.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseGitConfig } from './config-parse.js';

/** git's limit on nested includes. */
const MAX_INCLUDE_DEPTH = 10;

export interface ConfigFileEntries {
  entries: [key: string, value: string][];
  /** the first line git refuses, in this file or one it includes */
  bad?: { file: string; line: number; text: string };
  /** an includeIf was met: only git can judge its condition */
  includeIf?: boolean;
}

/** A file's entries with `include.path` followed (relative to the including file; `~/` is home); a missing file has none. */
export function readConfigFile(file: string, env: NodeJS.ProcessEnv, depth = 0): ConfigFileEntries {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { entries: [] };
  }
  const parsed = parseGitConfig(text);
  if (parsed.bad) return { entries: [], bad: { file, ...parsed.bad } };
  const out: ConfigFileEntries = { entries: [] };
  for (const entry of parsed.entries) {
    out.entries.push(entry);
    if (/^includeif\..*\.path$/.test(entry[0])) out.includeIf = true;
    if (entry[0] !== 'include.path') continue;
    if (depth >= MAX_INCLUDE_DEPTH) return { entries: [], bad: { file, line: 0, text: `exceeded maximum include depth (${MAX_INCLUDE_DEPTH})` } };
    const inner = readConfigFile(includePath(entry[1], file, env), env, depth + 1);
    if (inner.bad) return inner;
    out.entries.push(...inner.entries);
    out.includeIf ||= inner.includeIf;
  }
  return out;
}

function includePath(path: string, from: string, env: NodeJS.ProcessEnv): string {
  if (path.startsWith('~/')) return join(env.HOME || homedir(), path.slice(2));
  return resolve(dirname(from), path);
}

/**
 * The user's own config, never a store's: the system file (unless GIT_CONFIG_NOSYSTEM), the global
 * ones (GIT_CONFIG_GLOBAL, else $XDG_CONFIG_HOME/git/config and ~/.gitconfig), then GIT_CONFIG_COUNT's
 * pairs, as git orders them. A file git could not read adds nothing; includeIf is not followed.
 */
export function userConfigEntries(env: NodeJS.ProcessEnv): [string, string][] {
  const entries: [string, string][] = [];
  for (const f of userConfigFiles(env)) {
    const r = readConfigFile(f, env);
    if (!r.bad) entries.push(...r.entries);
  }
  const count = Number(env.GIT_CONFIG_COUNT ?? 0);
  for (let i = 0; Number.isInteger(count) && i < count && i < 1000; i++) {
    const key = env[`GIT_CONFIG_KEY_${i}`];
    if (key) entries.push([normalKey(key), env[`GIT_CONFIG_VALUE_${i}`] ?? '']);
  }
  return entries;
}

/** The user's config files in the order git reads them: the system file (unless GIT_CONFIG_NOSYSTEM), then GIT_CONFIG_GLOBAL, else $XDG_CONFIG_HOME/git/config and ~/.gitconfig. */
export function userConfigFiles(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  const files: string[] = [];
  if (!isTrue(env.GIT_CONFIG_NOSYSTEM)) files.push(env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig');
  if (env.GIT_CONFIG_GLOBAL !== undefined) files.push(env.GIT_CONFIG_GLOBAL);
  else files.push(join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config'), join(home, '.gitconfig'));
  return files;
}

/** Every value of `key` (lower case) in the user's config, in order. */
export function userConfigValues(env: NodeJS.ProcessEnv, key: string): string[] {
  return userConfigEntries(env)
    .filter(([k]) => k === key)
    .map(([, v]) => v);
}

/** `Section.Sub.Key` → `section.Sub.key`: git folds the case of the section and the key, not the subsection. */
function normalKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}.${key.slice(last + 1).toLowerCase()}`;
}

const isTrue = (v: string | undefined) => v !== undefined && v !== '' && !/^(0|false|no|off)$/i.test(v);
