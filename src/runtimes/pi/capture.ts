// pi's live capture alone: what `ctx hook pi` loads (index.ts adds import, the extension's install,
// export and tools, which a turn's capture never runs).
import type { LiveCapture } from '../../api/capture/runtime.js';
import { captureEvent, captureSession, catchUpLive, liveInfo } from './hook.js';
import { shellSession } from './shell-session.js';

export const capture: LiveCapture = { parse: captureEvent, run: captureSession, live: liveInfo, catchUp: catchUpLive, shellSession };
