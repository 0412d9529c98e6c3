// The protocol's operations other than `describe`, each answer checked before ctx uses it: a turn
// split that covers the bytes exactly and in order, a hook event with a session, messages of the
// neutral model, rendered bytes with a file name of one component.
import { isAbsolute, resolve } from 'node:path';
import type { Segment } from '../../api/capture/capture.js';
import { ROLES, isRecord, type NeutralMessage } from '../../core/neutral.js';
import { bad, call, decodeData, encodeData, type Executable } from './protocol.js';

/** A session id a branch and a file may be named after. */
export const SESSION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export interface Split {
  segments: Segment[];
  session: string | null;
}

/** `split`: the bytes (whole lines; `final`: the end of the file) → one segment per turn or compaction. */
export function split(x: Executable, bytes: Uint8Array, final: boolean): Split {
  const a = call(x, 'split', { data: encodeData(bytes), final });
  const no = (what: string): never => bad(x, 'split', what);
  if (!Array.isArray(a.turns)) no('turns is not a list');
  const segments: Segment[] = [];
  let at = 0;
  for (const [i, t] of (a.turns as unknown[]).entries()) {
    if (!isRecord(t)) no(`turn ${i} is not an object`);
    const { start, end, kind, prompt, timestamp } = t as Record<string, unknown>;
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) no(`turn ${i}: start and end are not byte offsets`);
    if (start !== at) no(`turn ${i} starts at ${start}, not at ${at} (the turns must cover the bytes in order, with no gap or overlap)`);
    if ((end as number) <= (start as number)) no(`turn ${i} ends at ${end}, not after its start ${start}`);
    if ((end as number) > bytes.length) no(`turn ${i} ends at ${end}, past the ${bytes.length} bytes`);
    if (kind !== 'turn' && kind !== 'compaction') no(`turn ${i}: kind ${JSON.stringify(kind)} is not "turn" or "compaction"`);
    const s: Segment = { kind: kind === 'compaction' ? 'compaction' : 'delta', start: start as number, end: end as number };
    if (typeof prompt === 'string' && prompt !== '') s.prompt = prompt.split('\n')[0].slice(0, 200);
    if (typeof timestamp === 'string' && !Number.isNaN(Date.parse(timestamp))) s.timestamp = timestamp;
    segments.push(s);
    at = end as number;
  }
  if (at !== bytes.length) no(`the turns end at ${at}, not at the end of the ${bytes.length} bytes`);
  return { segments, session: sessionOf(x, 'split', a.session, true) };
}

export interface HookEvent {
  session: string;
  /** the transcript file, absolute */
  transcript: string;
  cwd?: string;
  event: string;
  /** the session ended: a last line without its newline is taken too */
  end: boolean;
}

/** `hook`: the runtime's hook JSON → what to capture; null: nothing (another event). */
export function hook(x: Executable, input: unknown): HookEvent | null {
  const a = call(x, 'hook', { input });
  const no = (what: string): never => bad(x, 'hook', what);
  if (!('capture' in a)) no('capture is missing (null when there is nothing to capture)');
  if (a.capture === null) return null;
  if (!isRecord(a.capture)) no('capture is not an object or null');
  const c = a.capture as Record<string, unknown>;
  const cwd = c.cwd;
  if (cwd !== undefined && (typeof cwd !== 'string' || !isAbsolute(cwd))) no('cwd is not an absolute path');
  if (typeof c.transcript !== 'string' || c.transcript === '') no('transcript is not a path');
  if (!isAbsolute(c.transcript as string) && cwd === undefined) no('transcript is relative and there is no cwd');
  if (typeof c.event !== 'string' || c.event === '') no('event is missing');
  return {
    session: sessionOf(x, 'hook', c.session, false)!,
    transcript: resolve((cwd as string | undefined) ?? '/', c.transcript as string),
    ...(cwd !== undefined ? { cwd: cwd as string } : {}),
    event: c.event as string,
    end: c.end === true,
  };
}

export interface Rendered {
  bytes: Uint8Array;
  session: string;
  /** the session file's name in the sessions directory */
  file: string;
}

/** `render`: neutral messages → the runtime's own bytes of a new session. */
export function render(x: Executable, messages: readonly NeutralMessage[], session: string, cwd: string): Rendered {
  const a = call(x, 'render', { messages, session, cwd });
  const no = (what: string): never => bad(x, 'render', what);
  const bytes = decodeData(a.data);
  if (bytes === null) no('data is not {"text"} or {"base64"}');
  const file = a.file;
  const id = sessionOf(x, 'render', a.session, false)!;
  if (typeof file !== 'string' || file === '.' || file === '..' || !/^[A-Za-z0-9._-]{1,255}$/.test(file)) no(`file ${JSON.stringify(file)} is not a file name`);
  return { bytes: bytes!, session: id, file: file as string };
}

/** `to-neutral`: the runtime's bytes → neutral messages. */
export function toNeutral(x: Executable, bytes: Uint8Array): NeutralMessage[] {
  const a = call(x, 'to-neutral', { data: encodeData(bytes) });
  return checkMessages(x, 'to-neutral', a.messages);
}

export interface Sample {
  transcript: Uint8Array;
  hook: unknown;
}

/** `sample`: a small transcript of its own and a hook event, for `ctx runtime check`. */
export function sample(x: Executable): Sample {
  const a = call(x, 'sample');
  const transcript = decodeData(a.transcript);
  if (transcript === null || transcript.length === 0) bad(x, 'sample', 'transcript is not {"text"} or {"base64"} of some bytes');
  if (!isRecord(a.hook)) bad(x, 'sample', 'hook is not an object (a hook event of the runtime)');
  return { transcript: transcript!, hook: a.hook };
}

function sessionOf(x: Executable, op: string, v: unknown, optional: boolean): string | null {
  if ((v === undefined || v === null) && optional) return null;
  if (typeof v !== 'string' || !SESSION.test(v)) bad(x, op, `session ${JSON.stringify(v)} is not an id of letters, digits, '.', '_' and '-'`);
  return v as string;
}

const BLOCKS = new Set(['text', 'thinking', 'image', 'tool_call', 'tool_result']);

/** Messages of the neutral model (src/core/neutral.ts), as far as ctx relies on their shape. */
export function checkMessages(x: Executable, op: string, v: unknown): NeutralMessage[] {
  const no = (what: string): never => bad(x, op, what);
  if (!Array.isArray(v)) no('messages is not a list');
  for (const [i, m] of (v as unknown[]).entries()) {
    if (!isRecord(m) || !(ROLES as readonly unknown[]).includes(m.role)) no(`message ${i}: role is not one of ${ROLES.join(', ')}`);
    const content = (m as Record<string, unknown>).content;
    if (!Array.isArray(content)) no(`message ${i}: content is not a list of blocks`);
    for (const b of content as unknown[]) {
      if (!isRecord(b) || !BLOCKS.has(b.type as string)) no(`message ${i}: a block's type is not one of ${[...BLOCKS].join(', ')}`);
      const blk = b as Record<string, unknown>;
      if ((blk.type === 'text' || blk.type === 'thinking') && typeof blk.text !== 'string') no(`message ${i}: a ${blk.type} block has no text`);
      if (blk.type === 'tool_call' && (typeof blk.id !== 'string' || typeof blk.name !== 'string')) no(`message ${i}: a tool_call has no id or name`);
      if (blk.type === 'tool_result' && typeof blk.call_id !== 'string') no(`message ${i}: a tool_result has no call_id`);
    }
  }
  return v as NeutralMessage[];
}
