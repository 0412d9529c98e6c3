// Copilot CLI's live capture alone: what `ctx hook copilot` loads (index.ts adds import, its hook
// file's install, export and tools, which a turn's capture never runs).
import type { LiveCapture } from '../../api/capture/runtime.js';
import { captureEvent, captureSession, catchUpLive, liveInfo } from './hook.js';
import { shellSession } from './shell-session.js';

export const capture: LiveCapture = { parse: (v) => captureEvent(v), run: captureSession, live: liveInfo, catchUp: catchUpLive, shellSession };
