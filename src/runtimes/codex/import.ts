// `ctx import codex FILE`: a Codex CLI rollout into a chain, a commit per prompt and its answer,
// `compacted` lines as compaction commits. Every byte lands in exactly one artifact. Codex appends
// to a thread's rollout: importing it again onto its branch adds only the lines new since then,
// through live capture's engine (holding the session's capture lock, as the hook does), and nothing
// when there are none.
import { basename } from 'node:path';
import type { TranscriptStream } from '../../api/capture/capture.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ImportOptions, ImportResult } from '../../api/capture/runtime.js';
import { refs } from '../../store/refs.js';
import { importSegments, readNonEmpty, recapture } from '../transcript.js';
import { splitRollout } from './split.js';

export const CODEX_FORMAT = 'codex-rollout-v1';
/** Rollouts from before the envelopes: stored as they are, mapped into v1 when asked for it. */
export const CODEX_LEGACY_FORMAT = 'codex-rollout-v0';

export const sessionBranch = (session: string) => `codex/${session}`;

export const transcript: TranscriptStream = { format: CODEX_FORMAT, template: 'codex', split: (bytes) => splitRollout(bytes).segments };

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export async function importCodex(ctx: RepoContext, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readNonEmpty(file);
  const { sessionId, legacy, segments } = splitRollout(bytes);
  const session = opts.fields?.session ?? sessionId ?? UUID.exec(basename(file))?.[1] ?? basename(file).replace(/\.jsonl$/, '');
  const branch = opts.branch ?? sessionBranch(session);
  const format = legacy ? CODEX_LEGACY_FORMAT : CODEX_FORMAT;
  const tip = ctx.refs.read(refs.branch(branch));
  if (tip === null) return importSegments(ctx, { file, bytes, segments, session, branch, template: 'codex', format }, opts);
  // the branch holds an earlier import (or a capture) of this rollout: what is new, or an error when it is not an extension
  const stream = { transcript: { ...transcript, format }, base: branch, file, main: true };
  const r = await recapture(ctx, session, stream);
  return { branch, session, bytes: bytes.length, commits: r.commits, unchanged: r.commits.length === 0, tip: r.commits.at(-1)?.oid ?? tip };
}
