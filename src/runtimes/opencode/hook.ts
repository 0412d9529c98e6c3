// Live capture from ctx's opencode plugin: after a turn (session.idle) and a compaction
// (session.compacted) the plugin reads the session through opencode's own client and writes
// `{"hook_event_name", "session_id", "cwd", "session": {info, messages}}` on `ctx hook opencode`'s
// stdin, so ctx never opens opencode's live database.
import { CtxError } from '../../errors/index.js';
import type { Trigger } from '../../core/meta.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { CaptureEvent } from '../../api/capture/runtime.js';
import type { LiveInfo } from '../../api/capture/live.js';
import { checkSession } from '../../formats/opencode-session.js';
import { sessionBranch } from './names.js';
import { appendSession } from './session.js';

export const TRIGGERS: Readonly<Record<string, Trigger>> = { 'session.idle': 'turn_boundary', 'session.compacted': 'compaction' };

interface HookInput {
  hook_event_name: string;
  session_id: string;
  cwd?: string;
  session: unknown;
}

/** Hook input → the event to capture; null: an event ctx does not capture. */
export function captureEvent(v: unknown): CaptureEvent | null {
  const o = (v ?? {}) as Record<string, unknown>;
  for (const k of ['session_id', 'hook_event_name'])
    if (typeof o[k] !== 'string' || o[k] === '') throw new CtxError(`hook input has no ${k}`);
  const input = o as unknown as HookInput;
  if (!Object.hasOwn(TRIGGERS, input.hook_event_name)) return null;
  if (!/^[A-Za-z0-9_-]+$/.test(input.session_id)) throw new CtxError(`hook input's session_id is not an opencode session id: ${input.session_id.slice(0, 80)}`);
  return { event: input.hook_event_name, session: input.session_id, cwd: typeof input.cwd === 'string' ? input.cwd : undefined, input };
}

/** What the session holds past its chain, appended to `opencode/<session>`. */
export async function captureSession(ctx: RepoContext, event: CaptureEvent): Promise<void> {
  const input = event.input as HookInput;
  const doc = checkSession(input.session);
  if (doc.info.id !== event.session) throw new CtxError(`hook input's session is ${String(doc.info.id)}, not ${event.session}`);
  await appendSession(ctx, sessionBranch(event.session), doc, { trigger: TRIGGERS[event.event], session: event.session }, event.session);
}

/** For the live-session index: the session's branch (opencode keeps no transcript file to catch up from). */
export const liveInfo = (event: CaptureEvent): LiveInfo => ({ branch: sessionBranch(event.session) });
