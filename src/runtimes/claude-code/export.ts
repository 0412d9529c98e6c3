// `ctx export claude-code ID`: a context as a new Claude Code session that `claude --resume` accepts.
// Every line is re-encoded (JSON.parse → new sessionId and forkedFrom → JSON.stringify), so the
// bytes differ from the stored ones; the messages do not.
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { AlreadyExistsError, BadInputError, UsageError } from '../../errors/index.js';
import { materialize } from '../../api/materialize.js';
import type { RepoContext } from '../../api/repo-context.js';
import { CLAUDE_FORMAT } from './import.js';

export interface ExportOptions {
  /** the new session's id (a UUID); random by default */
  sessionId?: string;
  /** write here instead of `<config>/projects/<encoded cwd>/` */
  dir?: string;
  /** materialize stop: compaction (default), root or an ancestor id */
  stop?: string;
  env?: NodeJS.ProcessEnv;
}

export interface Exported {
  sessionId: string;
  commit: string;
  /** the transcript's working directory, where `claude --resume` must run */
  cwd: string | null;
  bytes: Uint8Array;
  lines: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR ? resolve(env.CLAUDE_CONFIG_DIR) : join(env.HOME || homedir(), '.claude');
}

/** Claude Code's project directory name: the cwd with every character not a letter or digit as `-`. */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** The session's bytes: each line with the new sessionId and a `forkedFrom` naming the old one. */
export async function exportClaudeCode(ctx: RepoContext, spec: string, opts: ExportOptions = {}): Promise<Exported> {
  const sessionId = opts.sessionId ?? randomUUID();
  if (!UUID.test(sessionId)) throw new UsageError(`--session-id must be a UUID (Claude Code accepts no other): ${sessionId}`);
  const commit = `ctx-${await ctx.resolve(spec)}`;
  const m = await materialize(ctx, spec, { format: CLAUDE_FORMAT, stop: opts.stop ?? 'compaction' });
  const text = Buffer.from(m.bytes).toString('utf8');
  const out: string[] = [];
  let cwd: string | null = null;
  let lines = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      throw new BadInputError(`${commit.slice(0, 16)}: line ${lines + 1} of the context is not JSON`);
    }
    lines++;
    if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
      if (cwd === null && typeof entry.cwd === 'string') cwd = entry.cwd;
      if (typeof entry.sessionId === 'string') {
        // what Claude Code writes on a forked session's lines, plus the context commit it came from
        const forkedFrom: Record<string, unknown> = { sessionId: entry.sessionId };
        if (typeof entry.uuid === 'string') forkedFrom.messageUuid = entry.uuid;
        forkedFrom.commit = commit;
        entry.sessionId = sessionId;
        entry.forkedFrom = forkedFrom;
      }
    }
    out.push(`${JSON.stringify(entry)}\n`);
  }
  if (lines === 0) throw new BadInputError(`${spec}: nothing to export (the context is empty)`);
  return { sessionId, commit, cwd, bytes: Buffer.from(out.join(''), 'utf8'), lines };
}

/** Where Claude Code looks for the session: `<config>/projects/<encoded cwd>/<uuid>.jsonl`. */
export function exportPath(e: Exported, opts: ExportOptions): string {
  if (opts.dir) return join(resolve(opts.dir), `${e.sessionId}.jsonl`);
  if (e.cwd === null) throw new UsageError('the context names no working directory (no line has "cwd")', { hint: 'pass --dir DIR' });
  return join(claudeConfigDir(opts.env), 'projects', encodeProjectDir(e.cwd), `${e.sessionId}.jsonl`);
}

/** Written with O_EXCL: an existing session is never overwritten. */
export function writeSession(path: string, bytes: Uint8Array): void {
  mkdirSync(join(path, '..'), { recursive: true });
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new AlreadyExistsError(`${path} already exists`, { hint: 'choose another --session-id' });
    throw e;
  }
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}
