// Gemini CLI as a runtime plug-in: import of its sessions (JSONL, and the older chat documents), live
// capture from its hooks, its hook settings, export for `gemini --resume`. Heavy parts load when used.
import type { Runtime } from '../../api/capture/runtime.js';
import { writeSession } from '../session-file.js';
import { capture } from './capture.js';
import { GEMINI_CHAT_FORMAT, GEMINI_JSONL_FORMAT, sessionBranch } from './names.js';
import { exportPath } from './paths.js';
import { recognizer } from './recognize.js';
import { install, settingsPath, status, uninstall } from './settings.js';
import { sessionTranscript } from './transcript.js';
import { tools } from './tools.js';

export const geminiCli: Runtime = {
  name: 'gemini-cli',
  title: 'Gemini CLI',
  formats: [GEMINI_JSONL_FORMAT, GEMINI_CHAT_FORMAT],
  sessionBranch,
  import: {
    accepts: 'a Gemini CLI session .jsonl (or an older chat .json)',
    files: /^session-.*\.jsonl?$/,
    recognizer,
    run: async (ctx, file, opts) => (await import('./import.js')).importGemini(ctx, file, opts),
  },
  transcript: sessionTranscript,
  capture,
  hooks: { path: settingsPath, install, uninstall, status },
  export: {
    render: async (ctx, spec, opts) => (await import('./export.js')).exportGemini(ctx, spec, opts),
    path: exportPath,
    write: writeSession,
  },
  tools,
  mcp: async () => (await import('./mcp.js')).mcp,
};
