import { claudeCodeExport } from '../api/runtime-commands.js';
import { UsageError } from '../errors/index.js';
import { exportJson } from '../output/records.js';
import { defineCommand } from './command.js';
import { STOP_OPTION } from './metadata-flags.js';
import { EXPORT_RUNTIMES } from './runtime-names.js';

interface Flags {
  sessionId?: string;
  dir?: string;
  stdout?: boolean;
  stop?: string;
}

export default defineCommand({
  name: 'export',
  summary: 'write a context as a new Claude Code session; prints the claude --resume command',
  args: [
    { name: 'runtime', description: 'claude-code', required: true, values: EXPORT_RUNTIMES },
    { name: 'id', description: 'commit id, branch, tag or NAME~N', required: true, values: 'branch' },
  ],
  options: [
    { flags: '--session-id <uuid>', description: 'the new session id (default: random)' },
    { flags: '--dir <dir>', description: 'write into DIR instead of <config>/projects/<encoded cwd>/', values: 'file' },
    STOP_OPTION,
    { flags: '--stdout', description: 'write the session to stdout instead of a file' },
  ],
  examples: ['ctx export claude-code alice/auth-fix', 'ctx export claude-code alice/auth-fix~2 --stop root --json', 'ctx export claude-code alice/auth-fix --stdout > session.jsonl'],
  async run(io, [runtime, id]: [string, string], flags: Flags) {
    if (!(EXPORT_RUNTIMES as readonly string[]).includes(runtime)) throw new UsageError(`unknown runtime '${runtime}' (${EXPORT_RUNTIMES.join(', ')})`);
    const ex = await claudeCodeExport();
    const opts = { sessionId: flags.sessionId, dir: flags.dir, stop: flags.stop, env: io.env };
    const e = await io.withRepo(false, (repo) => ex.exportClaudeCode(repo, id, opts));
    const command = `claude --resume ${e.sessionId}`;
    if (flags.stdout) return { e, command, path: null };
    const path = ex.exportPath(e, opts);
    ex.writeSession(path, e.bytes);
    return { e, command, path };
  },
  print(io, { e, command, path }) {
    if (path === null) {
      io.out(e.bytes);
      io.note(`session ${e.sessionId}: ${e.lines} lines from ${e.commit.slice(0, 16)}`);
      return;
    }
    if (io.flags.json) return io.json(exportJson(e.sessionId, path, command));
    io.note(`wrote ${path} (${e.lines} lines from ${e.commit.slice(0, 16)})${e.cwd ? `; run it in ${e.cwd}` : ''}`);
    io.out(`${command}\n`);
  },
});
