// Codex's live capture alone: what `ctx hook codex` loads (index.ts adds import, its hooks.json and
// notify settings with their TOML, export and tools, which a turn's capture never runs).
import type { LiveCapture } from '../../api/capture/runtime.js';
import { captureEvent, captureTurn, catchUpLive, liveInfo } from './hook.js';
import { shellSession } from './shell-session.js';

export const capture: LiveCapture = { parse: captureEvent, run: captureTurn, live: liveInfo, catchUp: catchUpLive, shellSession };
