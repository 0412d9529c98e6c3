// `ctx import codex FILE`: a Codex CLI rollout into a chain, a commit per prompt and its answer,
// `compacted` lines as compaction commits. Every byte lands in exactly one artifact.
import { basename } from 'node:path';
import type { RepoContext } from '../../api/repo-context.js';
import type { ImportOptions, ImportResult } from '../../api/runtime.js';
import { importSegments, readNonEmpty } from '../transcript.js';
import { splitRollout } from './split.js';

export const CODEX_FORMAT = 'codex-rollout-v1';
/** Rollouts from before the envelopes: stored as they are, mapped into v1 when asked for it. */
export const CODEX_LEGACY_FORMAT = 'codex-rollout-v0';

export const sessionBranch = (session: string) => `codex/${session}`;

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export async function importCodex(ctx: RepoContext, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readNonEmpty(file);
  const { sessionId, legacy, segments } = splitRollout(bytes);
  const session = opts.fields?.session ?? sessionId ?? UUID.exec(basename(file))?.[1] ?? basename(file).replace(/\.jsonl$/, '');
  return importSegments(ctx, { file, bytes, segments, session, branch: opts.branch ?? sessionBranch(session), template: 'codex', format: legacy ? CODEX_LEGACY_FORMAT : CODEX_FORMAT }, opts);
}
