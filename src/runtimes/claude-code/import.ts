// `ctx import claude-code FILE`: a transcript into a chain, a commit per prompt and its answer,
// compact_boundary + summary as compaction commits. Every byte lands in exactly one artifact.
// A file imported before (or captured by the hook) gets only its new bytes, through live capture's
// own engine; a subagent transcript starts at the commit that spawned it, as the hook's capture does.
import { basename } from 'node:path';
import { AlreadyExistsError } from '../../errors/index.js';
import { derivedFrom } from '../../core/meta.js';
import { captureStream, type TranscriptStream } from '../../api/capture.js';
import { readTipMeta } from '../../api/context-reader.js';
import type { RepoContext } from '../../api/repo-context.js';
import type { ImportOptions, ImportResult } from '../../api/runtime.js';
import { refs } from '../../store/refs.js';
import { importSegments, readNonEmpty } from '../transcript.js';
import { CLAUDE_FORMAT, agentBranch, sessionBranch } from './names.js';
import { splitTranscript } from './split.js';

const AGENT_FILE = /^agent-(.+)\.jsonl$/;

export async function importClaudeCode(ctx: RepoContext, file: string, transcript: TranscriptStream, opts: ImportOptions = {}): Promise<ImportResult> {
  const bytes = readNonEmpty(file);
  const segments = splitTranscript(bytes);
  const session = opts.fields?.session ?? segments.find((s) => s.sessionId)?.sessionId ?? basename(file).replace(/\.jsonl$/, '');
  const agent = AGENT_FILE.exec(basename(file))?.[1];
  const branch = opts.branch ?? (agent !== undefined ? agentBranch(session, agent) : sessionBranch(session));
  const tip = ctx.refs.read(refs.branch(branch));
  if (tip === null && agent === undefined)
    return importSegments(ctx, { file, bytes, segments, session, branch, template: 'claude-code', format: CLAUDE_FORMAT }, opts);
  if (tip !== null && !(await holdsFile(ctx, tip, file))) throw new AlreadyExistsError(`branch ${branch} already exists`, { hint: 'choose another with -b NAME' });
  // what is new past the branch's tip, or a subagent's whole file from the commit that spawned it
  const stream = {
    transcript,
    base: branch,
    file,
    main: agent === undefined,
    startAt: async (first: Uint8Array) => {
      const mainTip = ctx.refs.read(refs.branch(sessionBranch(session)));
      return mainTip && (await import('./spawn.js')).findSpawnCommit(ctx, mainTip, agent!, first);
    },
  };
  const r = await captureStream(ctx, stream, { session, trigger: 'import', final: true, strict: true });
  const now = ctx.refs.read(refs.branch(r.branch))!;
  return { branch: r.branch, session, bytes: bytes.length, commits: r.commits, unchanged: r.commits.length === 0, tip: now };
}

/** The branch's newest transcript bytes came from a file of this name (a `ctx compact` compaction or snapshot passed over). */
async function holdsFile(ctx: RepoContext, tip: string, file: string): Promise<boolean> {
  let meta = await readTipMeta(ctx, tip);
  for (let from = derivedFrom(meta); from !== null; from = derivedFrom(meta)) meta = await readTipMeta(ctx, from);
  return (meta.source as { file?: unknown } | undefined)?.file === basename(file);
}
