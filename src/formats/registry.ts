// Adding a format: one module and one line here.
import { UsageError } from '../errors/index.js';
import { bureauAgent } from './bureau-agent.js';
import { claudeCode } from './claude-code.js';
import { codexRollout } from './codex-rollout.js';
import { codexRolloutV0 } from './codex-rollout-v0.js';
import type { StorageFormat } from './format.js';
import { geminiChat } from './gemini-chat.js';
import { openaiChat } from './openai-chat.js';

const storage: readonly StorageFormat[] = [claudeCode, bureauAgent, codexRollout, codexRolloutV0, geminiChat, openaiChat];
/** Formats that only materialize writes. */
export const OUTPUT_ONLY = ['markdown', 'raw'] as const;

export function storageFormat(name: string): StorageFormat {
  const f = storage.find((s) => s.name === name);
  if (!f) throw new UsageError(`unknown format '${name}' (known: ${storage.map((s) => s.name).join(', ')})`);
  return f;
}

/** The format of a stored artifact, or undefined when this build does not know it. */
export function knownFormat(name: string): StorageFormat | undefined {
  return storage.find((s) => s.name === name);
}

export function checkOutputFormat(name: string): string {
  if (!formatNames().includes(name)) throw new UsageError(`unknown format '${name}' (known: ${formatNames().join(', ')})`);
  return name;
}

export const formatNames = () => [...storage.map((s) => s.name), ...OUTPUT_ONLY];
