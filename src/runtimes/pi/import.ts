// `ctx import pi FILE`: a pi session file becomes delta commits, a commit per prompt and its answer,
// and a compaction commit per compaction entry; importing it again later appends only its new
// lines, as live capture does.
import { basename } from 'node:path';
import { catchUpChain } from '../../api/capture/catch-up.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ImportOptions, ImportResult } from '../../api/capture/runtime.js';
import { refs } from '../../store/refs.js';
import { importSegments, readNonEmpty } from '../transcript.js';
import { PI_FORMAT, sessionBranch } from './names.js';
import { splitSession } from './split.js';
import { sessionTranscript } from './transcript.js';

export async function importPi(ctx: RepoContext, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readNonEmpty(file);
  const segments = splitSession(bytes);
  // pi names a file `<time>_<session id>.jsonl`; its header says the id too
  const session = opts.fields?.session ?? segments.find((s) => s.sessionId)?.sessionId ?? basename(file).replace(/\.jsonl$/, '').replace(/^.*_/, '');
  const branch = opts.branch ?? sessionBranch(session);
  const tip = ctx.refs.read(refs.branch(branch));
  if (tip === null) return importSegments(ctx, { file, bytes, segments, session, branch, template: 'pi', format: PI_FORMAT }, opts);
  // the branch must hold the file's first bytes: what came after them is appended, as the hook would
  const commits = await catchUpChain(ctx, sessionTranscript, branch, tip, file, 'import');
  return { branch, session, bytes: bytes.length, commits, unchanged: commits.length === 0, tip: commits.length ? commits[commits.length - 1].oid : tip };
}
