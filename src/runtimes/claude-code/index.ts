// Claude Code as a runtime plug-in: import of its session transcripts, live capture from its hooks,
// its hook settings, export for `claude --resume`. Heavy parts load when used: the hook path stays small.
import type { TranscriptStream } from '../../api/capture/capture.js';
import type { Runtime } from '../../api/capture/runtime.js';
import { captureEvent, captureSession, catchUpLive, liveInfo, type HookInput } from './hook.js';
import { CLAUDE_FORMAT, sessionBranch } from './names.js';
import { exportPath, writeSession } from './paths.js';
import { covers, install, settingsPath, status, uninstall } from './settings.js';
import { recognizer } from './recognize.js';
import { splitTranscript } from './split.js';
import { usageOf } from './usage.js';
import { tools } from './tools.js';
import { shellSession } from './shell-session.js';

const transcript: TranscriptStream = { format: CLAUDE_FORMAT, template: 'claude-code', split: splitTranscript, sourceFields: (bytes) => ({ ...usageOf(bytes) }) };

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
  capture: {
    parse: captureEvent,
    run: async (ctx, event, note) => void (await captureSession(ctx, transcript, event.input as HookInput, note)),
    live: liveInfo,
    catchUp: (ctx, live, note) => catchUpLive(ctx, transcript, live, note),
    shellSession,
  },
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
