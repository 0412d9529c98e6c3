// `ctx import claude-code FILE`: a transcript into a chain, a commit per prompt and its answer,
// compact_boundary + summary as compaction commits. Every byte lands in exactly one artifact.
import { basename } from 'node:path';
import type { RepoContext } from '../../api/repo-context.js';
import { importSegments, readNonEmpty, type ImportOptions, type ImportResult } from '../transcript.js';
import { splitTranscript } from './split.js';


export const CLAUDE_FORMAT = 'claude-code-v1';

export async function importClaudeCode(ctx: RepoContext, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readNonEmpty(file);
  const segments = splitTranscript(bytes);
  const session = opts.fields?.session ?? segments.find((s) => s.sessionId)?.sessionId ?? basename(file).replace(/\.jsonl$/, '');
  return importSegments(ctx, { file, bytes, segments, session, branch: opts.branch ?? `claude/${session}`, template: 'claude-code', format: CLAUDE_FORMAT }, opts);
}
