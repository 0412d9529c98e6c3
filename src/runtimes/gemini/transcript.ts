// How a Gemini CLI JSONL session's appended bytes become commits (live capture, import of a later save).
import type { TranscriptStream } from '../../api/capture/capture.js';
import { GEMINI_JSONL_FORMAT } from './names.js';
import { splitSession } from './split.js';

export const sessionTranscript: TranscriptStream = { format: GEMINI_JSONL_FORMAT, template: 'gemini-cli', split: splitSession };
