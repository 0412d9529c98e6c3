// How a pi session's appended bytes become commits (live capture, import of a later save).
import type { TranscriptStream } from '../../api/capture/capture.js';
import { PI_FORMAT } from './names.js';
import { splitSession } from './split.js';

export const sessionTranscript: TranscriptStream = { format: PI_FORMAT, template: 'pi', split: splitSession };
