// Claude Code's live capture alone: what `ctx hook claude-code` loads (index.ts adds import, hook
// settings, export and tools, which a turn's capture never runs).
import type { TranscriptStream } from '../../api/capture/capture.js';
import type { LiveCapture } from '../../api/capture/runtime.js';
import { captureEvent, captureSession, catchUpLive, liveInfo, type HookInput } from './hook.js';
import { CLAUDE_FORMAT } from './names.js';
import { splitTranscript } from './split.js';
import { usageOf } from './usage.js';
import { shellSession } from './shell-session.js';

export const transcript: TranscriptStream = { format: CLAUDE_FORMAT, template: 'claude-code', split: splitTranscript, sourceFields: (bytes) => ({ ...usageOf(bytes) }) };

export const capture: LiveCapture = {
  parse: captureEvent,
  run: async (ctx, event, note) => void (await captureSession(ctx, transcript, event.input as HookInput, note)),
  live: liveInfo,
  catchUp: (ctx, live, note) => catchUpLive(ctx, transcript, live, note),
  shellSession,
};
