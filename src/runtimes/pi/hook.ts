// Live capture from the extension `ctx hooks install pi` writes: the JSON it gives `ctx hook pi`
// (pi's event, the session file, its id and directory) and the capture of that file.
import { isAbsolute, resolve } from 'node:path';
import { CtxError } from '../../errors/index.js';
import type { Trigger } from '../../core/meta.js';
import { captureStream } from '../../api/capture/capture.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { CaptureEvent } from '../../api/capture/runtime.js';
import type { LiveInfo, LiveSession } from '../../api/capture/live.js';
import { sessionBranch } from './names.js';
import { sessionTranscript } from './transcript.js';

/** What ctx's extension writes on `ctx hook pi`'s stdin. */
export interface HookInput {
  event: string;
  session_file: string;
  session_id: string;
  cwd?: string;
}

/**
 * The pi events ctx's extension reports: after each model call and its tools (turn_end, mid-prompt),
 * after each prompt (agent_end), after a compaction, and when the session ends.
 */
export const TRIGGERS: Readonly<Record<string, Trigger>> = { turn_end: 'tool_call', agent_end: 'turn_boundary', session_compact: 'turn_boundary', session_shutdown: 'session_end' };

export function captureEvent(v: unknown): CaptureEvent | null {
  const o = (v ?? {}) as Record<string, unknown>;
  for (const k of ['event', 'session_id', 'session_file'])
    if (typeof o[k] !== 'string' || o[k] === '') throw new CtxError(`hook input has no ${k}`);
  if (o.cwd !== undefined && typeof o.cwd !== 'string') throw new CtxError('hook input has a cwd that is not a string');
  const input = o as unknown as HookInput;
  if (!Object.hasOwn(TRIGGERS, input.event)) return null;
  return { event: input.event, session: input.session_id, cwd: input.cwd, input };
}

const fileOf = (input: HookInput) => (isAbsolute(input.session_file) ? input.session_file : resolve(input.cwd ?? '.', input.session_file));

/** What the session file holds past the chain, appended to `pi/<session>`. */
export async function captureSession(ctx: RepoContext, event: CaptureEvent, note: (line: string) => void): Promise<void> {
  const input = event.input as HookInput;
  const run = { session: input.session_id, trigger: TRIGGERS[input.event], final: input.event === 'session_shutdown' };
  const r = await captureStream(ctx, { transcript: sessionTranscript, key: input.session_id, base: sessionBranch(input.session_id), file: fileOf(input), main: true }, run);
  if (r.forked) note(`session file ${r.forked.reason}: started ${r.branch} at ${r.forked.at ?? 'a new root'}`);
}

export function liveInfo(event: CaptureEvent): LiveInfo {
  const input = event.input as HookInput;
  return { branch: sessionBranch(input.session_id), transcript: fileOf(input) };
}

/** A catch-up before a code commit: what the session file holds past the chain, as tool_call checkpoints. */
export async function catchUpLive(ctx: RepoContext, live: LiveSession): Promise<string> {
  if (live.transcript === undefined) return live.branch;
  const r = await captureStream(ctx, { transcript: sessionTranscript, key: live.session, base: sessionBranch(live.session), file: live.transcript, main: true }, { session: live.session, trigger: 'tool_call', final: false });
  return r.branch;
}
