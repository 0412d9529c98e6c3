// Where Codex CLI keeps its files: CODEX_HOME, its threads' rollouts, and the settings ctx reads.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';

/** `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.CODEX_HOME ? resolve(env.CODEX_HOME) : join(env.HOME || homedir(), '.codex');
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Codex's name for a thread's rollout: `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDTHH-MM-SS-<id>.jsonl`, in local time. */
export function rolloutPath(home: string, id: string, at: Date): string {
  const [y, mo, d] = [at.getFullYear(), pad(at.getMonth() + 1), pad(at.getDate())];
  const time = `${y}-${mo}-${d}T${pad(at.getHours())}-${pad(at.getMinutes())}-${pad(at.getSeconds())}`;
  return join(home, 'sessions', String(y), mo, d, `rollout-${time}-${id}.jsonl`);
}

/** Where `codex resume <id>` finds the exported thread; its time is the one in the UUIDv7 id. */
export function exportPath(e: Exported, opts: ExportOptions): string {
  const at = uuidTime(e.sessionId) ?? new Date();
  if (opts.dir) return join(resolve(opts.dir), basename(rolloutPath('', e.sessionId, at)));
  return rolloutPath(codexHome(opts.env), e.sessionId, at);
}

/** The rollout of thread `id` under `<home>/sessions` (newest day first), or null. */
export function findRollout(home: string, id: string): string | null {
  const suffix = `-${id}.jsonl`;
  const dirs = (path: string) => (existsSync(path) ? readdirSync(path).sort().reverse() : []);
  const sessions = join(home, 'sessions');
  for (const y of dirs(sessions))
    for (const m of dirs(join(sessions, y)))
      for (const d of dirs(join(sessions, y, m))) {
        const hit = dirs(join(sessions, y, m, d)).find((f) => f.startsWith('rollout-') && f.endsWith(suffix));
        if (hit) return join(sessions, y, m, d, hit);
      }
  return null;
}

/** A UUID version 7 (what Codex gives threads): `ms` in its first 48 bits, the rest random. */
export function uuidv7(ms: number, random: Uint8Array): string {
  const b = Uint8Array.from(random.subarray(0, 16));
  for (let i = 0; i < 6; i++) b[i] = Math.floor(ms / 2 ** (8 * (5 - i))) & 0xff;
  b[6] = 0x70 | (b[6] & 0x0f);
  b[8] = 0x80 | (b[8] & 0x3f);
  const h = Buffer.from(b).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function uuidTime(id: string): Date | null {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7/i.test(id)) return null;
  return new Date(parseInt(id.replace(/-/g, '').slice(0, 12), 16));
}

/** A top-level string key of `config.toml` (before any table), or undefined. */
export function topLevelKey(text: string, key: string): string | undefined {
  for (const line of text.split('\n')) {
    if (/^\s*\[/.test(line)) break;
    const m = new RegExp(`^\\s*${key}\\s*=\\s*"([^"\\\\]*)"\\s*(#.*)?$`).exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** The provider new threads use: config.toml's `model_provider`, else Codex's default. */
export function configuredProvider(env: NodeJS.ProcessEnv | undefined): string {
  const path = join(codexHome(env), 'config.toml');
  return (existsSync(path) && topLevelKey(readFileSync(path, 'utf8'), 'model_provider')) || 'openai';
}
