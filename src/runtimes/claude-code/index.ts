// Claude Code as a runtime plug-in: import of its session transcripts, live capture from its hooks,
// its hook settings, export for `claude --resume`. Heavy parts load when used; a hook loads capture.ts alone.
import type { Runtime } from '../../api/capture/runtime.js';
import { capture, transcript } from './capture.js';
import { CLAUDE_FORMAT, sessionBranch } from './names.js';
import { exportPath, writeSession } from './paths.js';
import { covers, install, settingsPath, status, uninstall } from './settings.js';
import { recognizer } from './recognize.js';
import { tools } from './tools.js';

export const claudeCode: Runtime = {
  name: 'claude-code',
  title: 'Claude Code',
  formats: [CLAUDE_FORMAT],
  sessionBranch,
  import: {
    accepts: 'a Claude Code session .jsonl',
    recognizer,
    run: async (ctx, file, opts) => (await import('./import.js')).importClaudeCode(ctx, file, transcript, opts),
  },
  transcript,
  capture,
  hooks: { path: settingsPath, install, uninstall, status, covers },
  export: {
    render: async (ctx, spec, opts) => (await import('./export.js')).exportClaudeCode(ctx, spec, opts),
    path: exportPath,
    write: writeSession,
    track: async (ctx, e, path) => (await import('./export.js')).trackExport(ctx, e, path),
  },
  tools,
  mcp: async () => (await import('./mcp.js')).mcp,
};
