// `ctx import codex FILE`: a Codex CLI rollout into a chain, a commit per prompt and its answer,
// `compacted` lines as compaction commits. Every byte lands in exactly one artifact.
import { basename } from 'node:path';
import { BadInputError } from '../../errors/index.js';
import type { RepoContext } from '../../api/repo-context.js';
import { writeChain, type ChainItem } from '../../api/write.js';
import { readTranscript, type ImportOptions, type ImportResult } from '../claude-code/import.js';
import { splitRollout } from './split.js';

export const CODEX_FORMAT = 'codex-rollout-v1';

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export async function importCodex(ctx: RepoContext, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readTranscript(file);
  if (bytes.length === 0) throw new BadInputError(`nothing to import: ${file} is empty`);
  const { sessionId, segments } = splitRollout(bytes);
  const session = opts.fields?.session ?? sessionId ?? UUID.exec(basename(file))?.[1] ?? basename(file).replace(/\.jsonl$/, '');
  const branch = opts.branch ?? `codex/${session}`;
  // the file's name, not its path: the same rollout gives the same commit ids on any machine
  const name = basename(file);
  // a segment with no timestamp of its own (older rollouts time only their header) takes the one before it
  let lastTime = opts.fields?.createdAt;
  const items: ChainItem[] = segments.map((s, i) => ({
    template: 'codex',
    trigger: 'import',
    summary: s.prompt ?? '',
    ...opts.fields,
    session,
    type: s.kind,
    createdAt: (lastTime = validTime(s.timestamp) ?? lastTime),
    source: { file: name, offset: s.start, length: s.end - s.start },
    artifact: bytes.subarray(s.start, s.end),
    lastOfFile: i === segments.length - 1,
  }));
  const commits = await writeChain(ctx, branch, CODEX_FORMAT, items, (n) => opts.onProgress?.(n, items.length));
  return { branch, session, bytes: bytes.length, commits };
}

function validTime(t: string | undefined): string | undefined {
  return t !== undefined && !Number.isNaN(Date.parse(t)) ? t : undefined;
}
