// What ctx does with a runtime from outside: import its file, capture what a hook names, export a
// context for its resume. Its bytes are stored exactly as written, through the write path every
// built-in runtime uses (importSegments, captureStream, catchUpChain); it only says where turns end.
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { captureStream, type TranscriptStream } from '../../api/capture/capture.js';
import { catchUpChain } from '../../api/capture/catch-up.js';
import { neutralMessages, parseStop, readContext } from '../../api/read/context-reader.js';
import type { RepoContext } from '../../api/repo/repo-context.js';
import type { CaptureEvent, ExportOptions, Exported, ImportOptions, ImportResult } from '../../api/capture/runtime.js';
import { shellQuote } from '../../core/shell.js';
import { BadInputError } from '../../errors/index.js';
import { refs } from '../../store/refs.js';
import { importSegments, readNonEmpty } from '../transcript.js';
import type { Description } from './describe.js';
import { hook, render, split, type HookEvent } from './ops.js';
import type { Executable } from './protocol.js';

export interface External {
  x: Executable;
  d: Description;
  stream: TranscriptStream;
  branch(session: string): string;
}

/** `ctx import <name> FILE`: one commit per turn on `<name>/<session>`; again later: only what is new. */
export async function importExternal(e: External, ctx: RepoContext, file: string, opts: ImportOptions): Promise<ImportResult> {
  const bytes = readNonEmpty(file);
  const { segments, session: said } = split(e.x, bytes, true);
  const named = basename(file).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[._-]+/, '');
  const session = opts.fields?.session ?? said ?? (named.endsWith(e.d.sessions.suffix) ? named.slice(0, -e.d.sessions.suffix.length) : named);
  const branch = opts.branch ?? e.branch(session);
  const tip = ctx.refs.read(refs.branch(branch));
  if (tip === null) return importSegments(ctx, { file, bytes, segments, session, branch, template: e.d.name, format: e.d.format }, opts);
  const commits = await catchUpChain(ctx, e.stream, branch, tip, file, 'import');
  return { branch, session, bytes: bytes.length, commits, unchanged: commits.length === 0, tip: commits.length ? commits[commits.length - 1].oid : tip };
}

/** `ctx hook <name>`: the runtime's hook JSON, read by the runtime itself. */
export function captureEvent(e: External, input: unknown): CaptureEvent | null {
  const h = hook(e.x, input);
  return h && { event: h.event, session: h.session, cwd: h.cwd, input: h };
}

/** What the transcript holds past the session's chain, appended to `<name>/<session>`. */
export async function captureExternal(e: External, ctx: RepoContext, event: CaptureEvent, note: (line: string) => void): Promise<void> {
  const h = event.input as HookEvent;
  const run = { session: h.session, trigger: h.end ? ('session_end' as const) : ('turn_boundary' as const), final: h.end };
  const r = await captureStream(ctx, { transcript: e.stream, key: `${e.d.name}-${h.session}`, base: e.branch(h.session), file: h.transcript, main: true }, run);
  if (r.forked) note(`session file ${r.forked.reason}: started ${r.branch} at ${r.forked.at ?? 'a new root'}`);
}

/** Rendered sessions' file names, for `exportPath` (the Exported record has no field of its own for it). */
const files = new WeakMap<Exported, string>();

/** `ctx export <name> ID`: the context as neutral messages, rendered by the runtime as a new session. */
export async function exportExternal(e: External, ctx: RepoContext, spec: string, opts: ExportOptions): Promise<Exported> {
  const oid = await ctx.resolve(spec);
  const { parts } = await readContext(ctx, oid, await parseStop(ctx, opts.stop ?? 'compaction'));
  const messages = neutralMessages(parts);
  if (messages.length === 0) throw new BadInputError(`${spec}: nothing to export (the context is empty)`);
  const cwd = opts.cwd ?? process.cwd();
  const r = render(e.x, messages, opts.sessionId ?? randomUUID(), cwd);
  const lines = r.bytes.reduce((n, b) => n + (b === 0x0a ? 1 : 0), 0);
  const out: Exported = { sessionId: r.session, commit: `ctx-${oid}`, cwd, bytes: r.bytes, lines, command: e.d.resume!.replaceAll('{session}', shellQuote(r.session)) };
  files.set(out, r.file);
  return out;
}

/** Where the runtime looks: its sessions directory (`~/` the user's home), or `--dir`. */
export function exportPath(e: External, out: Exported, opts: ExportOptions): string {
  const file = files.get(out) ?? `${out.sessionId}${e.d.sessions.suffix}`;
  return join(opts.dir ? resolve(opts.dir) : sessionsDir(e.d, opts.env ?? process.env), file);
}

export function sessionsDir(d: Description, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  return d.sessions.dir === '~' ? home : d.sessions.dir.startsWith('~/') ? join(home, d.sessions.dir.slice(2)) : resolve(d.sessions.dir);
}
