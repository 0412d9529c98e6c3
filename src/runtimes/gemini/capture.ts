// Gemini CLI's live capture alone: what `ctx hook gemini-cli` loads (index.ts adds import, hook
// settings, export and tools, which a turn's capture never runs).
import type { LiveCapture } from '../../api/capture/runtime.js';
import { captureEvent, captureSession, catchUpLive, liveInfo } from './hook.js';

export const capture: LiveCapture = { parse: captureEvent, run: captureSession, live: liveInfo, catchUp: catchUpLive };
