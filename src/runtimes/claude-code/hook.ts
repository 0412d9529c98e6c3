// Live capture from Claude Code's hooks: what its hook input says, and which transcripts a call
// captures (the session's, and its subagents' onto branches forked where they were spawned). The
// capture itself is live capture's runtime-neutral code (api/capture/capture.ts).
import { resolve } from 'node:path';
import { CtxError } from '../../errors/index.js';
import type { Trigger } from '../../core/meta.js';
import { captureStream, type Run, type StreamReport, type TranscriptStream } from '../../api/capture/capture.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { CaptureEvent } from '../../api/capture/runtime.js';
import type { LiveInfo, LiveSession } from '../../api/capture/live.js';
import { refs } from '../../store/refs.js';
import { agentFiles } from './agents.js';
import { flushed } from './flushed.js';
import { agentBranch, sessionBranch } from './names.js';

/** The JSON Claude Code writes on a hook's stdin (the fields ctx reads). */
export interface HookInput {
  session_id: string;
  transcript_path: string;
  hook_event_name: string;
  cwd?: string;
  /** SessionStart: startup | resume | clear | compact */
  source?: string;
  /** Stop, SubagentStop: the text of the last assistant message (2.1.x) */
  last_assistant_message?: string;
  /** SubagentStop: the subagent's transcript ('' when Claude Code keeps none) */
  agent_transcript_path?: string;
}

/** What an event checkpoints as; null: the event has nothing to capture. */
export function triggerFor(input: HookInput): Trigger | null {
  switch (input.hook_event_name) {
    case 'Stop':
    case 'SubagentStop':
      return 'turn_boundary';
    case 'PreCompact':
      return 'compaction';
    case 'SessionEnd':
      return 'session_end';
    case 'SessionStart':
      return input.source === 'compact' || input.source === 'resume' ? 'turn_boundary' : null;
    default:
      return null;
  }
}

export function checkHookInput(v: unknown): HookInput {
  const o = (v ?? {}) as Record<string, unknown>;
  for (const k of ['session_id', 'transcript_path', 'hook_event_name'])
    if (typeof o[k] !== 'string' || o[k] === '') throw new CtxError(`hook input has no ${k}`);
  return o as unknown as HookInput;
}

/** Hook input → the event to capture; null: nothing to capture. */
export function captureEvent(v: unknown): CaptureEvent | null {
  const input = checkHookInput(v);
  if (triggerFor(input) === null) return null;
  return { event: input.hook_event_name, session: input.session_id, cwd: input.cwd, input };
}

/** For the live-session index: the session's branch and transcript, as the hook input names them. */
export function liveInfo(event: CaptureEvent): LiveInfo {
  const input = event.input as HookInput;
  return { branch: sessionBranch(input.session_id), transcript: resolve(input.cwd ?? '.', input.transcript_path) };
}

/** A catch-up before a code commit: what the session's transcript (and its subagents') hold past the chain, as tool_call checkpoints. */
export async function catchUpLive(ctx: RepoContext, transcript: TranscriptStream, live: LiveSession, note: (line: string) => void): Promise<string> {
  if (live.transcript === undefined) return live.branch;
  const input: HookInput = { session_id: live.session, transcript_path: live.transcript, hook_event_name: 'Stop', cwd: live.cwd };
  const [main] = await captureSession(ctx, transcript, input, note, 'tool_call');
  return main?.branch ?? live.branch;
}

/** A Stop's (or a subagent's) last assistant message in its transcript, once Claude Code has written it there (flushed.ts). */
async function flushedTurn(input: HookInput, file: string): Promise<void> {
  const text = input.last_assistant_message;
  if (typeof text !== 'string' || text === '') return;
  if (input.hook_event_name === 'Stop') await flushed(file, text);
  else if (input.hook_event_name === 'SubagentStop' && typeof input.agent_transcript_path === 'string' && input.agent_transcript_path !== '') await flushed(resolve(input.cwd ?? '.', input.agent_transcript_path), text);
}

/** Capture the session's transcript and its subagents' transcripts. */
export async function captureSession(ctx: RepoContext, transcript: TranscriptStream, input: HookInput, note: (line: string) => void, as?: Trigger): Promise<StreamReport[]> {
  const trigger = as ?? triggerFor(input);
  if (trigger === null) return [];
  const session = input.session_id;
  const file = resolve(input.cwd ?? '.', input.transcript_path);
  const run: Run = { session, trigger, final: input.hook_event_name === 'SessionEnd' };
  await flushedTurn(input, file);
  const reports: StreamReport[] = [];
  const base = sessionBranch(session);
  // a new session forked from an exported commit starts at that commit (only on its first capture: the branch is new)
  const known = ctx.refs.read(refs.branch(base)) === null ? await (await import('./forked.js')).forkedPosition(ctx, base, file) : null;
  const main = await captureStream(ctx, { transcript, key: session, base, file, main: true }, run, known ?? undefined);
  reports.push(main);
  if (main.forked) note(`transcript ${main.forked.reason}: started ${main.branch} at ${main.forked.at ?? 'a new root'}`);
  for (const agent of agentFiles(ctx.gitdir, file, session)) {
    const r = await captureStream(
      ctx,
      {
        transcript,
        key: `${session}.agent-${agent.id}`,
        base: agentBranch(session, agent.id),
        file: agent.path,
        main: false,
        startAt: async (first) => {
          const tip = ctx.refs.read(refs.branch(main.branch));
          return tip && (await (await import('./spawn.js')).findSpawnCommit(ctx, tip, agent.id, first));
        },
      },
      run,
    );
    if (r.forked) note(`subagent transcript ${r.forked.reason}: started ${r.branch}`);
    reports.push(r);
  }
  return reports;
}
