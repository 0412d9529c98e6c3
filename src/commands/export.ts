import { exportSession } from '../api/sessions.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, runtime: string, id: string, flags: { sessionId?: string; dir?: string; stdout?: boolean; stop?: string }) {
  const opts = { sessionId: flags.sessionId, dir: flags.dir, stop: flags.stop, env: cli.env, write: !flags.stdout };
  const e = await cli.withRepo(false, (repo) => exportSession(repo, runtime, id, opts));
  if (flags.stdout) {
    cli.out(e.bytes);
    cli.note(`session ${e.sessionId}: ${e.lines} lines from ${e.commit.slice(0, 16)}`);
    return;
  }
  if (cli.flags.json) return cli.json({ v: 1, session_id: e.sessionId, path: e.path, command: e.command });
  cli.note(`wrote ${e.path} (${e.lines} lines from ${e.commit.slice(0, 16)})${e.cwd ? `; run it in ${e.cwd}` : ''}`);
  cli.out(`${e.command}\n`);
}
