import { UsageError } from '../errors/index.js';
import { exportClaudeCode, exportPath, writeSession } from '../runtimes/claude-code/export.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, runtime: string, id: string, flags: { sessionId?: string; dir?: string; stdout?: boolean; stop?: string }) {
  if (runtime !== 'claude-code') throw new UsageError(`unknown runtime '${runtime}' (claude-code)`);
  const opts = { sessionId: flags.sessionId, dir: flags.dir, stop: flags.stop, env: cli.env };
  const e = await cli.withRepo(false, (repo) => exportClaudeCode(repo, id, opts));
  const command = `claude --resume ${e.sessionId}`;
  if (flags.stdout) {
    cli.out(e.bytes);
    cli.note(`session ${e.sessionId}: ${e.lines} lines from ${e.commit.slice(0, 16)}`);
    return;
  }
  const path = exportPath(e, opts);
  writeSession(path, e.bytes);
  if (cli.flags.json) return cli.json({ v: 1, session_id: e.sessionId, path, command });
  cli.note(`wrote ${path} (${e.lines} lines from ${e.commit.slice(0, 16)})${e.cwd ? `; run it in ${e.cwd}` : ''}`);
  cli.out(`${command}\n`);
}
