// copilot-events-v1: a GitHub Copilot CLI session (`~/.copilot/session-state/<id>/events.jsonl`),
// bytes exactly as the runtime appended them, joined by byte append. Each line is an event
// `{type, data, id, timestamp, parentId}`: `session.start`, `user.message`, `assistant.message`,
// `tool.execution_start|complete`, `session.compaction_start|complete`, hooks, usage, `session.shutdown`.
import { eachObjectLine, parseObjectLines } from './jsonl.js';
import { concatBytes, timestampField, type StorageFormat } from './format.js';
import { copilotEventsToNeutral, eventTexts, isCompaction, isConversationEvent, neutralToCopilotEvents, withPrompts } from './copilot-messages.js';

export const COPILOT_FORMAT = 'copilot-events-v1';

const lines = (events: readonly unknown[]) => Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');

export const copilotEvents: StorageFormat = {
  name: COPILOT_FORMAT,
  runtime: 'copilot',
  ext: 'jsonl',
  parse: parseObjectLines,
  eachEntry: eachObjectLine,
  concat: concatBytes,
  concatRule: 'append',
  count: (entries) => entries.filter((e) => isConversationEvent(e) || isCompaction(e)).length,
  tokenTexts: (entries) => entries.flatMap(eventTexts),
  entryTime: timestampField,
  toNeutral: copilotEventsToNeutral,
  fromNeutral: (messages) => lines(neutralToCopilotEvents(messages)),
  withKept: withPrompts,
};
