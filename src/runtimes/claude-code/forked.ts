// A session Claude Code forked from one ctx exported (`--resume … --fork-session`, or a resume that
// writes a new file): its file opens with copies of the exported lines, each still carrying the
// export's `forkedFrom.commit`. Its chain starts at that commit and holds only the lines after them.
import { eachLine, readRange } from '../../api/read/files.js';
import type { Position } from '../../api/capture/capture.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import { TAIL_BYTES } from '../../store/capture-state.js';
import { refs } from '../../store/refs.js';

const COMMIT = /^ctx-[0-9a-f]{40}$/;

/** The exported commit the file's copied lines name and the byte offset past the last of them; null: not such a file. */
export function exportedPrefix(file: string): { commit: string; end: number } | null {
  let commit: string | null = null;
  let end = 0;
  let done = false;
  eachLine(file, (bytes, _start, lineEnd) => {
    if (done) return;
    let entry: { uuid?: unknown; forkedFrom?: { commit?: unknown } } | null;
    try {
      entry = JSON.parse(bytes.toString('utf8'));
    } catch {
      return void (done = true);
    }
    const named = entry?.forkedFrom?.commit;
    if (typeof named === 'string' && COMMIT.test(named) && (commit === null || commit === named)) {
      [commit, end] = [named, lineEnd];
      return;
    }
    // a message line that is no copy ends the copies; the session's own bookkeeping lines (mode, queue) may precede them
    if (typeof entry?.uuid === 'string' || typeof named === 'string') done = true;
  });
  return commit === null ? null : { commit, end };
}

/**
 * Where a new session's capture starts when its file is a fork of an exported commit in this store:
 * the session's branch made at that commit, the position past the copied lines. Null otherwise.
 */
export async function forkedPosition(ctx: RepoContext, branch: string, file: string): Promise<Position | null> {
  if (ctx.refs.read(refs.branch(branch)) !== null) return null;
  let found: { commit: string; end: number } | null;
  try {
    found = exportedPrefix(file);
  } catch {
    return null;
  }
  if (found === null) return null;
  let tip: string;
  try {
    tip = await ctx.resolve(found.commit);
  } catch {
    return null; // exported from another store: captured whole, as any new session
  }
  ctx.refs.update(refs.branch(branch), tip, null);
  const len = Math.min(TAIL_BYTES, found.end);
  return { branch, tip, offset: found.end, tail: { len, bytes: readRange(file, found.end - len, found.end) }, valid: false };
}
