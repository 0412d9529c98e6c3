// `ctx import claude-code FILE`: a transcript into a chain, a commit per prompt and its answer,
// compact_boundary + summary as compaction commits. Every byte lands in exactly one artifact.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { BadInputError, NotFoundError } from '../../errors/index.js';
import type { RepoContext } from '../../api/repo-context.js';
import { writeChain, type ChainItem, type CommitFields, type WrittenCommit } from '../../api/write.js';
import { splitTranscript } from './split.js';

export const CLAUDE_FORMAT = 'claude-code-v1';

export interface ImportOptions {
  branch?: string;
  fields?: CommitFields;
  onProgress?: (done: number, total: number) => void;
}

export interface ImportResult {
  branch: string;
  session: string;
  bytes: number;
  commits: WrittenCommit[];
}

export function readTranscript(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new NotFoundError(`no such file: ${file}`);
    throw new BadInputError(`cannot read ${file}: ${code ?? (e as Error).message}`);
  }
}

export async function importClaudeCode(ctx: RepoContext, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readTranscript(file);
  if (bytes.length === 0) throw new BadInputError(`nothing to import: ${file} is empty`);
  const segments = splitTranscript(bytes);
  const session = opts.fields?.session ?? segments.find((s) => s.sessionId)?.sessionId ?? basename(file).replace(/\.jsonl$/, '');
  const branch = opts.branch ?? `claude/${session}`;
  // the file's name, not its path: the same transcript gives the same commit ids on any machine
  const name = basename(file);
  // a segment with no timestamp of its own (a summary-only file) takes the one before it
  let lastTime = opts.fields?.createdAt;
  const items: ChainItem[] = segments.map((s, i) => ({
    template: 'claude-code',
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
  const commits = await writeChain(ctx, branch, CLAUDE_FORMAT, items, (n) => opts.onProgress?.(n, items.length));
  return { branch, session, bytes: bytes.length, commits };
}

function validTime(t: string | undefined): string | undefined {
  return t !== undefined && !Number.isNaN(Date.parse(t)) ? t : undefined;
}
