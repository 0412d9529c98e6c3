// Live capture from Gemini CLI's hooks: what its hook input says, and the capture of the session
// file it names (live capture's runtime-neutral code, api/capture/capture.ts).
import { resolve } from 'node:path';
import { CtxError } from '../../errors/index.js';
import type { Trigger } from '../../core/meta.js';
import { captureStream } from '../../api/capture/capture.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { CaptureEvent } from '../../api/capture/runtime.js';
import type { LiveInfo, LiveSession } from '../../api/capture/live.js';
import { sessionBranch } from './names.js';
import { sessionTranscript } from './transcript.js';

/** The JSON Gemini CLI writes on a hook's stdin (the fields ctx reads). */
export interface HookInput {
  session_id: string;
  transcript_path: string;
  hook_event_name: string;
  cwd?: string;
}

/**
 * ctx's events: after every turn, and at the end of the session. (PreCompress fires before every
 * model call, compression or not; a compression only appends lines, which the next one captures.)
 */
export const TRIGGERS: Readonly<Record<string, Trigger>> = { AfterAgent: 'turn_boundary', SessionEnd: 'session_end' };

/** Hook input → the event to capture; null: nothing to capture (another event, or no session file yet). */
export function captureEvent(v: unknown): CaptureEvent | null {
  const o = (v ?? {}) as Record<string, unknown>;
  for (const k of ['session_id', 'hook_event_name'])
    if (typeof o[k] !== 'string' || o[k] === '') throw new CtxError(`hook input has no ${k}`);
  if (typeof o.transcript_path !== 'string') throw new CtxError('hook input has no transcript_path');
  const input = o as unknown as HookInput;
  // Gemini CLI names no file while it records none (recording off, or a full disk)
  if (!Object.hasOwn(TRIGGERS, input.hook_event_name) || input.transcript_path === '') return null;
  return { event: input.hook_event_name, session: input.session_id, cwd: input.cwd, input };
}

/** What the session file holds past the chain, appended to `gemini/<session>`. */
export async function captureSession(ctx: RepoContext, event: CaptureEvent, note: (line: string) => void): Promise<void> {
  const input = event.input as HookInput;
  const file = resolve(input.cwd ?? '.', input.transcript_path);
  const run = { session: input.session_id, trigger: TRIGGERS[input.hook_event_name], final: input.hook_event_name === 'SessionEnd' };
  const r = await captureStream(ctx, { transcript: sessionTranscript, key: input.session_id, base: sessionBranch(input.session_id), file, main: true }, run);
  if (r.forked) note(`session file ${r.forked.reason}: started ${r.branch} at ${r.forked.at ?? 'a new root'}`);
}

/** For the live-session index: the session's branch and the session file its hook input names. */
export function liveInfo(event: CaptureEvent): LiveInfo {
  const input = event.input as HookInput;
  return { branch: sessionBranch(input.session_id), transcript: resolve(input.cwd ?? '.', input.transcript_path) };
}

/** A catch-up before a code commit: what the session file holds past the chain, as tool_call checkpoints. */
export async function catchUpLive(ctx: RepoContext, live: LiveSession): Promise<string> {
  if (live.transcript === undefined) return live.branch;
  const r = await captureStream(ctx, { transcript: sessionTranscript, key: live.session, base: sessionBranch(live.session), file: live.transcript, main: true }, { session: live.session, trigger: 'tool_call', final: false });
  return r.branch;
}
