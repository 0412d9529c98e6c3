// Codex CLI as a runtime plug-in: import of its rollouts (current and pre-envelope), live capture
// from its hooks.json hooks (and `notify` before them), those settings, export for `codex resume`.
import type { Runtime } from '../../api/capture/runtime.js';
import { writeSession } from '../session-file.js';
import { CODEX_FORMAT, CODEX_LEGACY_FORMAT, importCodex, sessionBranch, transcript } from './import.js';
import { capture } from './capture.js';
import { exportPath } from './paths.js';
import { recognizer } from './recognize.js';
import { configPath, covers, install, status, uninstall } from './settings.js';
import { tools } from './tools.js';

export const codex: Runtime = {
  name: 'codex',
  title: 'Codex CLI',
  formats: [CODEX_FORMAT, CODEX_LEGACY_FORMAT],
  sessionBranch,
  import: { accepts: 'a Codex rollout .jsonl', files: /^rollout-.*\.jsonl$/, recognizer, run: importCodex },
  transcript,
  capture,
  hooks: { path: configPath, install, uninstall, status, covers },
  export: {
    render: async (ctx, spec, opts) => (await import('./export.js')).exportCodex(ctx, spec, opts),
    path: exportPath,
    write: writeSession,
  },
  tools,
  mcp: async () => (await import('./mcp.js')).mcp,
};
