// Adding a format: one module and one line here.
import { UsageError } from '../errors/index.js';
import { bureauAgent } from './bureau-agent.js';
import { claudeCode } from './claude-code.js';
import { codexRollout } from './codex-rollout.js';
import { codexRolloutV0 } from './codex-rollout-v0.js';
import { EXTERNAL_FORMAT, externalFormat } from './external.js';
import { copilotEvents } from './copilot-events.js';
import type { OutputFormat, StorageFormat } from './format.js';
import type { NeutralMessage } from '../core/neutral.js';
import { geminiChat } from './gemini-chat.js';
import { geminiJsonl } from './gemini-jsonl.js';
import { renderMarkdown } from './markdown.js';
import { renderRaw } from './raw.js';
import { openaiChat } from './openai-chat.js';
import { openaiAgents } from './openai-agents.js';
import { piSession } from './pi-session.js';
import { opencodeSession } from './opencode-session.js';

const storage: readonly StorageFormat[] = [claudeCode, bureauAgent, codexRollout, codexRolloutV0, geminiJsonl, geminiChat, openaiChat, piSession, opencodeSession, copilotEvents, openaiAgents];
/** Formats that only materialize writes. */
const output: readonly OutputFormat[] = [
  { name: 'markdown', tier: 'rendering', render: renderMarkdown },
  { name: 'raw', tier: 'raw', render: renderRaw },
];
/** A view or mask of a format that cannot carry one is written in this format when none is asked for. */
const VIEW_FORMAT = openaiChat;
/** A compaction of a format that cannot hold one is written in this format. */
const COMPACTION_FORMAT = bureauAgent;
/** What a library session appends and gives back when no format is asked for: Chat Completions messages. */
export const SESSION_FORMAT = openaiChat.name;

/** The formats a session can append entries to: those with an encoder, and JSON lines appended as they are. */
export const appendable = () => storage.filter((f) => f.encode || (f.concatRule === 'append' && !f.binary)).map((f) => f.name);

/** The formats of runtimes from outside: translating ones once their runtime is loaded, else opaque. */
const external = new Map<string, StorageFormat>();

/** A runtime from outside was loaded by name: its format reads into messages through it from now on. */
export function registerExternalFormat(name: string, toNeutral: (bytes: Uint8Array) => NeutralMessage[]): void {
  if (!EXTERNAL_FORMAT.test(name)) throw new UsageError(`'${name}' is no external runtime's format (<name>-ext-v<N>)`);
  external.set(name, externalFormat(name, toNeutral));
}

/** A built-in format, or a runtime-from-outside's (`<name>-ext-v<N>`: bytes as they are, appended). */
function findFormat(name: string): StorageFormat | undefined {
  const f = storage.find((s) => s.name === name);
  if (f || !EXTERNAL_FORMAT.test(name)) return f;
  if (!external.has(name)) external.set(name, externalFormat(name));
  return external.get(name);
}

export function storageFormat(name: string): StorageFormat {
  const f = findFormat(name);
  if (!f) throw new UsageError(`unknown format '${name}' (known: ${storage.map((s) => s.name).join(', ')})`);
  return f;
}

/** The format of a stored artifact, or undefined when this build does not know it. */
export function knownFormat(name: string): StorageFormat | undefined {
  return findFormat(name);
}

/** An output-only format (markdown, raw), or undefined. */
export function outputFormat(name: string): OutputFormat | undefined {
  return output.find((o) => o.name === name);
}

/** The output that stands in for any format this build cannot translate: every artifact as it is. */
export const rawOutput = () => output.find((o): o is Extract<OutputFormat, { tier: 'raw' }> => o.tier === 'raw')!;

export function checkOutputFormat(name: string): string {
  if (!formatNames().includes(name)) throw new UsageError(`unknown format '${name}' (known: ${formatNames().join(', ')})`);
  return name;
}

/** Every format a checkpoint can store. */
export const storageNames = () => storage.map((s) => s.name);
/** Every format materialize can write. */
export const formatNames = () => [...storageNames(), ...output.map((o) => o.name)];

/** The formats a view or mask can be written in: those written from the neutral model, and renderings. */
export const viewCarriers = () => formatNames().filter((n) => outputFormat(n)?.tier === 'rendering' || knownFormat(n)?.fromNeutral !== undefined);

/** What a view of `stored` is written as when no format is asked for. */
export const viewFormatFor = (stored: string) => (viewCarriers().includes(stored) || !knownFormat(stored) ? stored : VIEW_FORMAT.name);

/** The format a compaction of a `stored` context is written in: its own when it can hold one. */
export function compactionFormatFor(stored: string): StorageFormat {
  const f = knownFormat(stored);
  return f && (f.writeCompaction || f.fromNeutral) ? f : COMPACTION_FORMAT;
}
