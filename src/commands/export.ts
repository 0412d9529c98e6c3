import { exportSession } from '../api/capture/sessions.js';
import { exportJson } from '../output/records.js';
import { defineCommand } from './command.js';
import { STOP_OPTION } from './metadata-flags.js';

interface Flags {
  sessionId?: string;
  dir?: string;
  stdout?: boolean;
  stop?: string;
}

export default defineCommand({
  name: 'export',
  summary: "write a context as a new session of a runtime where it looks; prints the runtime's resume command",
  args: [
    { name: 'runtime', description: 'the runtime to resume in (or NAME of a ctx-runtime-NAME on PATH)', required: true, values: 'runtime:export' },
    { name: 'id', description: 'commit id, branch, tag or NAME~N', required: true, values: 'branch' },
  ],
  options: [
    { flags: '--session-id <uuid>', description: 'the new session id (default: random)' },
    { flags: '--dir <dir>', description: 'write into DIR instead of where the runtime looks (Claude Code: <config>/projects/<encoded cwd>/; Codex: $CODEX_HOME/sessions/YYYY/MM/DD/; Gemini CLI: ~/.gemini/tmp/<project>/chats/; pi: ~/.pi/agent/sessions/--<cwd>--/; opencode: ~/.config/opencode/ctx-exports/; Copilot CLI: $COPILOT_HOME or ~/.copilot, session-state/<session id>/events.jsonl)', values: 'file' },
    STOP_OPTION,
    { flags: '--stdout', description: 'write the session to stdout instead of a file' },
  ],
  examples: [
    'ctx export claude-code alice/auth-fix',
    'ctx export claude-code alice/auth-fix~2 --stop root --json',
    'ctx export claude-code alice/auth-fix --stdout > session.jsonl',
    'ctx export codex claude/3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83~3    # prints: codex resume <new thread id>',
    'ctx export gemini-cli alice/auth-fix --stop root',
    'ctx export pi claude/3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83    # prints: pi --session <new session id>',
    'ctx export opencode claude/3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83    # prints: opencode import <file> && opencode run -s <new id>',
    'ctx export copilot codex/0a1b2c3d-4e5f-7a8b-9c0d-1e2f3a4b5c6d    # prints: copilot --resume=<new session id>',
  ],
  async run(io, [runtime, id]: [string, string], flags: Flags) {
    const opts = { sessionId: flags.sessionId, dir: flags.dir, stop: flags.stop, env: io.env, cwd: io.cwd, write: !flags.stdout };
    const e = await io.withRepo(false, (repo) => exportSession(repo, runtime, id, opts));
    return { e, command: e.command, path: e.path ?? null };
  },
  print(io, { e, command, path }) {
    if (path === null) {
      io.out(e.bytes);
      io.note(`session ${e.sessionId}: ${e.lines} lines from ${e.commit.slice(0, 16)}`);
      return;
    }
    if (io.flags.json) return io.json(exportJson(e.sessionId, path, command, e.branch));
    io.note(`wrote ${path} (${e.lines} lines from ${e.commit.slice(0, 16)})${e.cwd ? `; run it in ${e.cwd}` : ''}${e.branch ? `; its hook capture continues ${e.branch}` : ''}`);
    io.out(`${command}\n`);
  },
});
