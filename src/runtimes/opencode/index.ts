// opencode as a runtime plug-in: import of a session as `opencode export` prints it, live capture
// from ctx's opencode plugin, the plugin's install, export for `opencode import` and `opencode run -s`.
import type { Runtime } from '../../api/capture/runtime.js';
import { writeSession } from '../session-file.js';
import { capture } from './capture.js';
import { OPENCODE_FORMAT, sessionBranch } from './names.js';
import { exportPath, pluginPath } from './paths.js';
import { covers, install, status, uninstall } from './plugin.js';
import { recognizer } from './recognize.js';
import { tools } from './tools.js';

export const opencode: Runtime = {
  name: 'opencode',
  title: 'opencode',
  formats: [OPENCODE_FORMAT],
  sessionBranch,
  import: {
    accepts: 'an opencode session as `opencode export <id>` prints it (.json)',
    files: /\.json$/,
    recognizer,
    run: async (ctx, file, opts) => (await import('./import.js')).importOpencode(ctx, file, opts),
  },
  capture,
  hooks: { path: pluginPath, install, uninstall, status, covers },
  export: {
    render: async (ctx, spec, opts) => (await import('./export.js')).exportOpencode(ctx, spec, opts),
    path: exportPath,
    write: writeSession,
    track: async (ctx, e) => (await import('./export.js')).trackExport(ctx, e),
  },
  tools,
  mcp: async () => (await import('./mcp.js')).mcp,
};

