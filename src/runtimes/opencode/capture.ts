// opencode's live capture alone: what `ctx hook opencode` loads (index.ts adds import, the plugin's
// install, export and tools, which a turn's capture never runs).
import type { LiveCapture } from '../../api/capture/runtime.js';
import { captureEvent, captureSession, liveInfo } from './hook.js';

export const capture: LiveCapture = { parse: captureEvent, run: captureSession, live: liveInfo };
