// `ctx import copilot FILE|DIR`: a Copilot CLI session's events.jsonl (a directory: every
// `events.jsonl` under it, Copilot's session-state folder or one session's folder) as delta commits,
// a commit per prompt and its answer, a compaction commit per compaction; importing it again later
// appends only its new lines, as live capture does.
import { basename, dirname } from 'node:path';
import { catchUpChain } from '../../api/capture/catch-up.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ImportOptions, ImportResult } from '../../api/capture/runtime.js';
import { refs } from '../../store/refs.js';
import { importSegments, readNonEmpty } from '../transcript.js';
import { COPILOT_FORMAT, sessionBranch } from './names.js';
import { splitSession } from './split.js';
import { sessionTranscript } from './transcript.js';

export async function importCopilot(ctx: RepoContext, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readNonEmpty(file);
  const segments = splitSession(bytes);
  // every session's file is events.jsonl: the session is named by its session.start, else its folder
  const session = opts.fields?.session ?? segments.find((s) => s.sessionId)?.sessionId ?? (basename(file) === 'events.jsonl' ? basename(dirname(file)) : basename(file).replace(/\.jsonl$/, ''));
  const branch = opts.branch ?? sessionBranch(session);
  const tip = ctx.refs.read(refs.branch(branch));
  if (tip === null) return importSegments(ctx, { file, bytes, segments, session, branch, template: 'copilot', format: COPILOT_FORMAT }, opts);
  // the branch must hold the file's first bytes: what came after them is appended, as the hook would
  const commits = await catchUpChain(ctx, sessionTranscript, branch, tip, file, 'import');
  return { branch, session, bytes: bytes.length, commits, unchanged: commits.length === 0, tip: commits.length ? commits[commits.length - 1].oid : tip };
}
