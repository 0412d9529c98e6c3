// `ctx export pi ID`: a context as a new pi session that `pi --session <id>` finds. Any chain is
// read as pi-session-v3 (a pi chain as it is, another runtime's through the neutral model); the
// file is a new `session` header naming the new id and the directory, then every entry re-encoded.
import { randomUUID } from 'node:crypto';
import { BadInputError } from '../../errors/index.js';
import { materialize } from '../../api/read/materialize.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ExportOptions, Exported } from '../../api/capture/runtime.js';
import { isRecord } from '../../core/neutral.js';
import { parseJsonLines } from '../../formats/jsonl.js';
import { TAIL_BYTES, tailHash, writeState } from '../../store/capture-state.js';
import { refs } from '../../store/refs.js';
import { checkSessionUuid } from '../session-file.js';
import { PI_FORMAT, sessionBranch } from './names.js';

export async function exportPi(ctx: RepoContext, spec: string, opts: ExportOptions = {}): Promise<Exported> {
  const sessionId = checkSessionUuid(opts.sessionId ?? randomUUID());
  const commit = `ctx-${await ctx.resolve(spec)}`;
  const m = await materialize(ctx, spec, { format: PI_FORMAT, stop: opts.stop ?? 'compaction' });
  const lines = parseJsonLines(m.bytes).map((l) => l.value);
  const header = lines.find((l) => isRecord(l) && l.type === 'session') as Record<string, unknown> | undefined;
  const entries = lines.filter((l) => !(isRecord(l) && l.type === 'session'));
  if (!entries.some((e) => isRecord(e) && e.type === 'message')) throw new BadInputError(`${spec}: nothing to export (the context holds no messages)`);
  // a context translated from another runtime names no directory: the session belongs where ctx runs
  const cwd = typeof header?.cwd === 'string' && header.cwd ? header.cwd : (opts.cwd ?? process.cwd());
  const head = { type: 'session', version: 3, id: sessionId, timestamp: ctx.now().toISOString(), cwd };
  const out = [head, ...entries].map((e) => `${JSON.stringify(e)}\n`);
  return { sessionId, commit, cwd, bytes: Buffer.from(out.join(''), 'utf8'), lines: out.length, command: `pi --session ${sessionId}` };
}

/**
 * The exported session's own branch, `pi/<session id>`, made at the exported commit, with the
 * hook's position at the end of the written file: the resumed session's turns are captured onto
 * it, forked from the exported commit, instead of the whole file onto a new root.
 */
export function trackExport(ctx: RepoContext, e: Exported, path: string): string | undefined {
  const branch = sessionBranch(e.sessionId);
  const tip = e.commit.slice('ctx-'.length);
  if (ctx.refs.read(refs.branch(branch)) !== null) return undefined;
  ctx.refs.update(refs.branch(branch), tip, null);
  const len = Math.min(TAIL_BYTES, e.bytes.length);
  writeState(ctx.gitdir, e.sessionId, { v: 1, branch, tip, offset: e.bytes.length, tail_sha256: tailHash(e.bytes.subarray(e.bytes.length - len)), tail_len: len, transcript: path, session: e.sessionId });
  return branch;
}
