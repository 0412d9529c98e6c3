// pi (`@mariozechner/pi-coding-agent`) as a runtime plug-in: import of its session files, live
// capture through an extension ctx writes, export for `pi --session`. Heavy parts load when used.
import type { Runtime } from '../../api/capture/runtime.js';
import { writeSession } from '../session-file.js';
import { covers, extensionPath, install, status, uninstall } from './extension.js';
import { capture } from './capture.js';
import { PI_FORMAT, sessionBranch } from './names.js';
import { exportPath } from './paths.js';
import { recognizer } from './recognize.js';
import { sessionTranscript } from './transcript.js';
import { tools } from './tools.js';

export const pi: Runtime = {
  name: 'pi',
  title: 'pi',
  formats: [PI_FORMAT],
  sessionBranch,
  import: {
    accepts: 'a pi session .jsonl',
    files: /_[0-9a-f-]+\.jsonl$/,
    recognizer,
    run: async (ctx, file, opts) => (await import('./import.js')).importPi(ctx, file, opts),
  },
  transcript: sessionTranscript,
  capture,
  hooks: { path: extensionPath, install, uninstall, status, covers },
  export: {
    render: async (ctx, spec, opts) => (await import('./export.js')).exportPi(ctx, spec, opts),
    path: exportPath,
    write: writeSession,
    track: async (ctx, e, path) => (await import('./export.js')).trackExport(ctx, e, path),
  },
  tools,
};
