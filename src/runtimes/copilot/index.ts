// GitHub Copilot CLI as a runtime plug-in: import of its sessions (events.jsonl), live capture from
// its hooks (ctx's own hook file), export for `copilot --resume`. Heavy parts load when used.
import type { Runtime } from '../../api/capture/runtime.js';
import { writeSession } from '../session-file.js';
import { capture } from './capture.js';
import { COPILOT_FORMAT, sessionBranch } from './names.js';
import { exportPath } from './paths.js';
import { recognizer } from './recognize.js';
import { covers, install, settingsPath, status, uninstall } from './settings.js';
import { sessionTranscript } from './transcript.js';
import { tools } from './tools.js';

export const copilot: Runtime = {
  name: 'copilot',
  title: 'GitHub Copilot CLI',
  formats: [COPILOT_FORMAT],
  sessionBranch,
  import: {
    accepts: "a Copilot CLI session's events.jsonl (or its session-state folder)",
    files: /^events\.jsonl$/,
    recognizer,
    run: async (ctx, file, opts) => (await import('./import.js')).importCopilot(ctx, file, opts),
  },
  transcript: sessionTranscript,
  capture,
  hooks: { path: settingsPath, install, uninstall, status, covers },
  export: {
    render: async (ctx, spec, opts) => (await import('./export.js')).exportCopilot(ctx, spec, opts),
    path: exportPath,
    write: writeSession,
    track: async (ctx, e, path) => (await import('./export.js')).trackExport(ctx, e, path),
  },
  tools,
  mcp: async () => (await import('./mcp.js')).mcp,
};
