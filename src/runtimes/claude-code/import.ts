// `ctx import claude-code FILE`: a transcript into a chain, a commit per prompt and its answer,
// compact_boundary + summary as compaction commits. Every byte lands in exactly one artifact.
import { basename } from 'node:path';
import type { RepoContext } from '../../api/repo-context.js';
import type { ImportOptions, ImportResult } from '../../api/runtime.js';
import { importSegments, readNonEmpty } from '../transcript.js';
import { CLAUDE_FORMAT, sessionBranch } from './names.js';
import { splitTranscript } from './split.js';

export async function importClaudeCode(ctx: RepoContext, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readNonEmpty(file);
  const segments = splitTranscript(bytes);
  const session = opts.fields?.session ?? segments.find((s) => s.sessionId)?.sessionId ?? basename(file).replace(/\.jsonl$/, '');
  return importSegments(ctx, { file, bytes, segments, session, branch: opts.branch ?? sessionBranch(session), template: 'claude-code', format: CLAUDE_FORMAT }, opts);
}
