// `ctx import claude-code FILE`: a transcript into a chain, a commit per prompt and its answer,
// compact_boundary + summary as compaction commits. Every byte lands in exactly one artifact.
// A file imported before (or captured by the hook) gets only its new bytes, through live capture's
// own engine; a subagent transcript starts at the commit that spawned it, as the hook's capture does.
import { basename, resolve } from 'node:path';
import { AlreadyExistsError, BadInputError } from '../../errors/index.js';
import type { TranscriptStream } from '../../api/capture/capture.js';
import { readRange } from '../../api/read/files.js';
import { mayBeCut, parseHeads } from '../../formats/jsonl.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { ImportOptions, ImportResult } from '../../api/capture/runtime.js';
import { readState, statePath } from '../../store/capture-state.js';
import { refs } from '../../store/refs.js';
import { importSegments, recapture } from '../transcript.js';
import { AGENT_FILE } from './agents.js';
import { findSpawnCommit } from './spawn.js';
import { forkedPosition } from './forked.js';
import { CLAUDE_FORMAT, agentBranch, sessionBranch } from './names.js';
import { splitTranscriptFile } from './split.js';

export async function importClaudeCode(ctx: RepoContext, file: string, transcript: TranscriptStream, opts: ImportOptions = {}): Promise<ImportResult> {
  // read a line at a time, and each segment again as its commit is written: never the whole file at once
  const { segments, size, firstLine } = splitTranscriptFile(file);
  if (size === 0) throw new BadInputError(`nothing to import: ${file} is empty`);
  const first = () => readRange(file, 0, firstLine);
  const session = opts.fields?.session ?? segments.find((s) => s.sessionId)?.sessionId ?? basename(file).replace(/\.jsonl$/, '');
  const agent = AGENT_FILE.exec(basename(file))?.[1] ?? sidechainAgent(first());
  const branch = opts.branch ?? (agent !== undefined ? agentBranch(session, agent) : sessionBranch(session));
  const tip = ctx.refs.read(refs.branch(branch));
  // a session Claude Code forked from an exported commit: only the lines after the copies, on top of that commit
  const forked = tip === null && agent === undefined ? await forkedPosition(ctx, branch, file) : null;
  if (forked !== null) {
    const r = await recapture(ctx, session, { transcript, key: opts.branch === undefined ? session : undefined, base: branch, file, main: true }, forked);
    const now = ctx.refs.read(refs.branch(r.branch))!;
    return { branch: r.branch, session, bytes: size, commits: r.commits, unchanged: false, tip: now };
  }
  if (tip === null) {
    // a subagent's chain starts at the commit that spawned it, as the hook's capture starts it
    const mainTip = agent === undefined ? null : ctx.refs.read(refs.branch(sessionBranch(session)));
    const onto = mainTip && (await findSpawnCommit(ctx, mainTip, agent!, first()));
    return importSegments(ctx, { file, bytes: null, segments, session, branch, template: 'claude-code', format: CLAUDE_FORMAT, onto }, opts);
  }
  // the default branch is the hook's: its position there (an exported session's) is shared
  const key = opts.branch === undefined ? (agent === undefined ? session : `${session}.agent-${agent}`) : undefined;
  if (!(await holdsFile(ctx, tip, file, key))) throw new AlreadyExistsError(`branch ${branch} already exists`, { hint: 'choose another with -b NAME' });
  // what is new past the branch's tip, split and written as the hook's capture writes it
  const stream = { transcript, key, base: branch, file, main: agent === undefined };
  const r = await recapture(ctx, session, stream);
  const now = ctx.refs.read(refs.branch(r.branch))!;
  return { branch: r.branch, session, bytes: size, commits: r.commits, unchanged: r.commits.length === 0, tip: now };
}

/**
 * The branch's newest transcript bytes came from a file of this name (a `ctx compact` compaction,
 * snapshot or state write passed over), or the hook's position for it names this file at the tip (an exported session).
 */
async function holdsFile(ctx: RepoContext, tip: string, file: string, key: string | undefined): Promise<boolean> {
  const state = key === undefined ? null : readState(statePath(ctx.gitdir, key));
  if (state?.tip === tip && state.transcript === resolve(file)) return true;
  // loaded by a re-import only, as recapture loads live capture
  const { transcriptTip } = await import('../../api/capture/capture.js');
  const found = await transcriptTip(ctx, tip);
  // a branch that only has state (`ctx state init`): the transcript starts on top of it
  if (found === null) return true;
  return (found.meta.source as { file?: unknown } | undefined)?.file === basename(file);
}

/** A subagent transcript under another name: its first line is a sidechain line naming its agent. */
function sidechainAgent(line: Uint8Array): string | undefined {
  try {
    // a long first line (a pasted file) is read as its heads; an id as long as a head, whole
    const first = parseHeads(line, (v) => !mayBeCut((v as { agentId?: unknown } | null)?.agentId)) as { isSidechain?: unknown; agentId?: unknown } | null;
    return first?.isSidechain === true && typeof first.agentId === 'string' && first.agentId !== '' ? first.agentId : undefined;
  } catch {
    return undefined;
  }
}
