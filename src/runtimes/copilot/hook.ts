// Live capture from Copilot CLI's hooks: what its hook input says, and the capture of the session's
// events.jsonl (live capture's runtime-neutral code, api/capture/capture.ts). Copilot's hook input
// names no event: agentStop's carries `stopReason`, preCompact's a `trigger`, sessionEnd's a `reason`
// and no transcript (the session's file is then found under Copilot's home).
import { resolve } from 'node:path';
import { CtxError } from '../../errors/index.js';
import type { Trigger } from '../../core/meta.js';
import { captureStream } from '../../api/capture/capture.js';
import { tailLines, waitUntil } from '../../api/capture/tail.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { CaptureEvent } from '../../api/capture/runtime.js';
import type { LiveInfo, LiveSession } from '../../api/capture/live.js';
import { sessionBranch } from './names.js';
import { copilotHome, eventsFile } from './paths.js';
import { sessionTranscript } from './transcript.js';

/** The hook input ctx reads, with the event and the session file it resolved. */
export interface HookInput {
  sessionId: string;
  cwd?: string;
  transcriptPath?: string;
  event: string;
  file: string;
  /** when Copilot ran the hook (ms since the epoch): its hook.start line bears the same time */
  timestamp?: number;
}

/** ctx's events (settings.ts installs these), as what they checkpoint. */
export const TRIGGERS: Readonly<Record<string, Trigger>> = { agentStop: 'turn_boundary', preCompact: 'compaction', sessionEnd: 'session_end' };

/** Which of ctx's events an input is; null for any other. */
function eventOf(o: Record<string, unknown>): string | null {
  if (typeof o.transcriptPath === 'string') return 'stopReason' in o || 'stop_hook_active' in o ? 'agentStop' : typeof o.trigger === 'string' ? 'preCompact' : null;
  return typeof o.reason === 'string' && !('prompt' in o) && !('toolName' in o) ? 'sessionEnd' : null;
}

/** Hook input → the event to capture; null: nothing to capture. */
export function captureEvent(v: unknown, env: NodeJS.ProcessEnv = process.env): CaptureEvent | null {
  const o = (v ?? {}) as Record<string, unknown>;
  if (typeof o.sessionId !== 'string' || o.sessionId === '') throw new CtxError('hook input has no sessionId');
  const event = eventOf(o);
  if (event === null) return null;
  const cwd = typeof o.cwd === 'string' ? o.cwd : undefined;
  const file = typeof o.transcriptPath === 'string' && o.transcriptPath !== '' ? resolve(cwd ?? '.', o.transcriptPath) : eventsFile(copilotHome(env), o.sessionId);
  if (file === null) throw new CtxError(`hook input names no session file for session ${o.sessionId}`);
  const input: HookInput = { sessionId: o.sessionId, cwd, transcriptPath: typeof o.transcriptPath === 'string' ? o.transcriptPath : undefined, event, file };
  if (typeof o.timestamp === 'number' && Number.isFinite(o.timestamp)) input.timestamp = o.timestamp;
  return { event, session: o.sessionId, cwd, input };
}

/** How long a hook waits for Copilot to write the `hook.start` line of the hook it is running. */
const FLUSH_WAIT_MS = 5_000;

/** The file's last line, if it is whole (within its last 64 KB; '' otherwise); null when the file is not there yet (or is no regular file: tail.ts). */
function lastLine(file: string): string | null {
  const lines = tailLines(file, 64 * 1024);
  if (lines === null) return null;
  return lines.at(-1) === '' ? (lines.at(-2) ?? '') : '';
}

/**
 * Copilot writes its events file in the background: the `hook.start` line of the hook it runs (where
 * the turn's segment ends, split.ts) may reach the file after the hook started, and in a new session
 * the file itself may not be there yet. A resumed session's lines may all still be unwritten when its
 * hooks run: the file then ends with the previous run's `session.shutdown`, which is older than the
 * hook (its input's timestamp). Wait for that line, bounded; then capture what is there.
 */
async function flushed(file: string, hookType: string, since: number | undefined): Promise<void> {
  await waitUntil(() => {
    const line = lastLine(file);
    if (line === null || line === '') return false;
    try {
      const e = JSON.parse(line) as { type?: unknown; timestamp?: unknown; data?: { hookType?: unknown } };
      // its hook.start is there; or this run is over (Copilot went on past a sessionEnd hook it does not wait for): nothing more comes
      const ended = e.type === 'session.shutdown' && !(since !== undefined && typeof e.timestamp === 'string' && Date.parse(e.timestamp) < since);
      return (e.type === 'hook.start' && e.data?.hookType === hookType) || ended;
    } catch {
      return false;
    }
  }, FLUSH_WAIT_MS);
}

/** What the session file holds past the chain, appended to `copilot/<session>`. */
export async function captureSession(ctx: RepoContext, event: CaptureEvent, note: (line: string) => void): Promise<void> {
  const input = event.input as HookInput;
  await flushed(input.file, input.event, input.timestamp);
  const run = { session: input.sessionId, trigger: TRIGGERS[input.event], final: input.event === 'sessionEnd' };
  const r = await captureStream(ctx, { transcript: sessionTranscript, key: input.sessionId, base: sessionBranch(input.sessionId), file: input.file, main: true }, run);
  if (r.forked) note(`session file ${r.forked.reason}: started ${r.branch} at ${r.forked.at ?? 'a new root'}`);
}

/** For the live-session index: the session's branch and its events file. */
export function liveInfo(event: CaptureEvent): LiveInfo {
  const input = event.input as HookInput;
  return { branch: sessionBranch(input.sessionId), transcript: input.file };
}

/** A catch-up before a code commit: what the session file holds past the chain, as tool_call checkpoints. */
export async function catchUpLive(ctx: RepoContext, live: LiveSession): Promise<string> {
  if (live.transcript === undefined) return live.branch;
  const r = await captureStream(ctx, { transcript: sessionTranscript, key: live.session, base: sessionBranch(live.session), file: live.transcript, main: true }, { session: live.session, trigger: 'tool_call', final: false });
  return r.branch;
}
