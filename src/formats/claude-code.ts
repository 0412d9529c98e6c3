// claude-code-v1: Claude Code transcript JSONL, bytes exactly as the runtime wrote them.
import { eachObjectLine, parseObjectLines } from './jsonl.js';
import { concatBytes, contentTexts, timestampField, type StorageFormat } from './format.js';
import { claudeCompactLines, withPreserved } from './claude-code-compaction.js';
import { isMessage, neutralLines } from './claude-code-messages.js';
import { claudeLinesFromNeutral } from './claude-code-write.js';
import { claudeSessionInfo } from './claude-code-session-info.js';
import { claudeUsage } from './claude-code-usage.js';

export const claudeCode: StorageFormat = {
  name: 'claude-code-v1',
  ext: 'jsonl',
  runtime: 'claude-code',
  parse: parseObjectLines,
  eachEntry: eachObjectLine,
  longTexts: true,
  concat: concatBytes,
  concatRule: 'append',
  count: (entries) => entries.filter(isMessage).length,
  tokenTexts: (entries) => entries.filter(isMessage).flatMap((e) => contentTexts(e.message?.content)),
  toNeutral: (entries) => neutralLines(entries).messages,
  fromNeutral: claudeLinesFromNeutral,
  writeCompaction: claudeCompactLines,
  withKept: withPreserved,
  entryTime: timestampField,
  sessionInfo: claudeSessionInfo,
  usage: claudeUsage,
};
