// A checkpoint commit's artifact: the messages its checkpoint added to the messages channel, as
// Chat Completions messages (the library's session format), so `ctx log`, `grep` and `serve` read them.
import { SESSION_FORMAT, storageFormat } from '../../formats/registry.js';
import type { NeutralMessage } from '../../core/neutral.js';
import { messageId, neutralMessage } from './messages.js';

export { SESSION_FORMAT };

export interface Artifact {
  bytes: Uint8Array;
  /** delta: the channel grew; compaction: it was rewritten, the artifact holds all of it */
  type: 'delta' | 'compaction';
  /** messages the channel holds, and the last one's id */
  messages: number;
  last?: string;
  /** the artifact holds messages */
  new: boolean;
}

/**
 * `value`: the messages channel's new value, undefined when it did not change. What the parent
 * checkpoint held (`messages`, `last_message` of its meta.json source) tells how far it grew.
 */
export function artifactOf(value: unknown, parent: { messages: number; last_message?: string } | undefined): Artifact {
  const fmt = storageFormat(SESSION_FORMAT);
  if (!Array.isArray(value)) return { bytes: fmt.fromNeutral!([]), type: 'delta', messages: parent?.messages ?? 0, last: parent?.last_message, new: false };
  const had = parent?.messages ?? 0;
  const grew = had <= value.length && (had === 0 || messageId(value[had - 1]) === parent?.last_message);
  const added = grew ? value.slice(had) : value;
  const neutral = added.map(neutralMessage).filter((m): m is NeutralMessage => m !== null);
  return { bytes: fmt.fromNeutral!(neutral), type: grew ? 'delta' : 'compaction', messages: value.length, last: messageId(value[value.length - 1]), new: neutral.length > 0 };
}
