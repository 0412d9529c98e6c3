// How a Copilot CLI events.jsonl's appended bytes become commits (live capture, import of a later save).
import type { TranscriptStream } from '../../api/capture/capture.js';
import { COPILOT_FORMAT } from './names.js';
import { splitSession } from './split.js';

export const sessionTranscript: TranscriptStream = { format: COPILOT_FORMAT, template: 'copilot', split: splitSession };
