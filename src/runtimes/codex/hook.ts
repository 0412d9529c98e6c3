// Live capture from Codex CLI: its hooks.json hooks (0.171) get `{session_id, transcript_path, cwd,
// hook_event_name}` on stdin; its `notify` program (every version) gets `{"type":"agent-turn-complete",
// "thread-id","turn-id","cwd",…}` as its last argument after every turn. The thread's rollout is
// found under CODEX_HOME/sessions by its id (the notify JSON does not name it) and what is new in it
// is captured by live capture's runtime-neutral engine (api/capture/capture.ts).
import { resolve } from 'node:path';
import { CtxError, NotFoundError } from '../../errors/index.js';
import { captureStream } from '../../api/capture/capture.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { CaptureEvent } from '../../api/capture/runtime.js';
import type { Trigger } from '../../core/meta.js';
import type { LiveInfo, LiveSession } from '../../api/capture/live.js';
import { readState, statePath } from '../../store/capture-state.js';
import { sessionBranch, transcript } from './import.js';
import { codexHome, findRollout } from './paths.js';

const TURN_COMPLETE = 'agent-turn-complete';

interface NotifyInput {
  type: string;
  'thread-id': string;
  'turn-id'?: string;
  cwd?: string;
  /** a hook's input may name the rollout */
  transcript_path?: string;
  /** a hooks.json event's checkpoint trigger (notify's is turn_boundary) */
  trigger?: Trigger;
}

/** What a hooks.json event checkpoints as; the rest capture nothing. */
const HOOK_TRIGGERS: Record<string, Trigger> = { Stop: 'turn_boundary', PreCompact: 'compaction', PostCompact: 'turn_boundary', SessionEnd: 'session_end' };

/** Notify JSON or hooks.json hook input → the event; null: a notification with nothing to capture. */
export function captureEvent(v: unknown): CaptureEvent | null {
  const o = (v ?? {}) as Record<string, unknown>;
  if (typeof o.hook_event_name === 'string') return hookEvent(o);
  if (typeof o.type !== 'string' || o.type === '') throw new CtxError('notify input has no type');
  if (o.type !== TURN_COMPLETE) return null;
  if (typeof o['thread-id'] !== 'string' || o['thread-id'] === '') throw new CtxError('notify input has no thread-id');
  const input = o as unknown as NotifyInput;
  return { event: input.type, session: input['thread-id'], cwd: typeof input.cwd === 'string' ? input.cwd : undefined, input };
}

function hookEvent(o: Record<string, unknown>): CaptureEvent | null {
  const trigger = HOOK_TRIGGERS[o.hook_event_name as string];
  if (trigger === undefined) return null;
  for (const k of ['session_id', 'transcript_path']) if (typeof o[k] !== 'string' || o[k] === '') throw new CtxError(`hook input has no ${k}`);
  const input: NotifyInput = { type: o.hook_event_name as string, 'thread-id': o.session_id as string, transcript_path: o.transcript_path as string, trigger, ...(typeof o.cwd === 'string' ? { cwd: o.cwd } : {}) };
  return { event: input.type, session: input['thread-id'], cwd: input.cwd, input };
}

export async function captureTurn(ctx: RepoContext, event: CaptureEvent, note: (line: string) => void): Promise<void> {
  const input = event.input as NotifyInput;
  // Codex runs its notify program with its own environment: CODEX_HOME is where it keeps threads
  const home = codexHome(process.env);
  const file = input.transcript_path ? resolve(event.cwd ?? '.', input.transcript_path) : findRollout(home, event.session);
  if (file === null) throw new NotFoundError(`no rollout of thread ${event.session} under ${home}/sessions`);
  const r = await captureStream(ctx, { transcript, key: event.session, base: sessionBranch(event.session), file, main: true }, { session: event.session, trigger: input.trigger ?? 'turn_boundary', final: input.type === 'SessionEnd' });
  if (r.forked) note(`rollout ${r.forked.reason}: started ${r.branch} at ${r.forked.at ?? 'a new root'}`);
}

/** For the live-session index: the thread's branch, the rollout when the input names it, and where Codex keeps threads (the notify JSON does not name the rollout). */
export function liveInfo(event: CaptureEvent): LiveInfo {
  const input = event.input as NotifyInput;
  return {
    branch: sessionBranch(event.session),
    ...(input.transcript_path ? { transcript: resolve(event.cwd ?? '.', input.transcript_path) } : {}),
    input: { codex_home: codexHome(process.env) },
  };
}

/** A catch-up before a code commit: the rollout the last capture read (its hook state names it), else found again; tool_call checkpoints. */
export async function catchUpLive(ctx: RepoContext, live: LiveSession): Promise<string> {
  const home = (live.input as { codex_home?: unknown } | undefined)?.codex_home;
  const file = live.transcript ?? readState(statePath(ctx.gitdir, live.session))?.transcript ?? (typeof home === 'string' ? findRollout(home, live.session) : null);
  if (!file) return live.branch;
  const r = await captureStream(ctx, { transcript, key: live.session, base: sessionBranch(live.session), file, main: true }, { session: live.session, trigger: 'tool_call', final: false });
  return r.branch;
}
