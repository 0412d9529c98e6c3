// `ctx checkpoint -b B --format F FILE` in the one-file bundle (dist/hook.cjs): what the checkpoint
// command does (src/commands/checkpoint.ts) without commander and the command table, the same
// output, errors and exit codes (report.ts). Other forms of the command go through the whole CLI.
import { writeSync } from 'node:fs';
import { openRepo } from '../api/repo/open.js';
import { readTranscript } from '../api/read/files.js';
import { checkpoint } from '../api/write/write.js';
import { shortId } from '../core/ids.js';
import { EXIT } from '../errors/index.js';
import { visibleLines } from '../output/style.js';
import type { CheckpointArgs } from './hook-args.js';
import { report } from './report.js';

const note = (text: string) => process.stderr.write(`${visibleLines(text)}\n`);

/** The exit code. */
export async function runCheckpointArgs(a: CheckpointArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const artifact = readTranscript(a.file);
    const { repo, created } = openRepo({ store: a.flags.store, engine: a.flags.engine as never, env, cwd: process.cwd(), create: true });
    if (created) note(`created context store at ${repo.gitdir}`);
    repo.onWarning = (text) => note(`ctx: warning: ${text}`);
    let written;
    try {
      written = await checkpoint(repo, { type: 'delta', branch: a.branch, format: a.format, artifact });
    } finally {
      await repo.close();
    }
    for (const w of written.warnings ?? []) note(w);
    // fs, not process.stdout: the stream would load node's net module for a pipe (an EPIPE is reported as ok)
    writeSync(1, `${shortId(written.oid)}\n`);
    return EXIT.ok;
  } catch (e) {
    return report(e, false);
  }
}
