// A runtime's sessions in and out of a store, dispatched through the runtime registry: import a
// transcript, export a context for the runtime's resume, install its hooks, capture a hook call.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { BadInputError, ConflictError, CtxError, UsageError } from '../../errors/index.js';
import { lockSession } from '../../store/capture-state.js';
import { checkBranchName } from '../../store/refs.js';
import { initRepo, locateStore } from '../../store/repo.js';
import { checkStoreTrust } from '../../store/trust.js';
import { checkRecognized } from './recognize.js';
import { recordLive } from './live.js';
import { RepoContext, type RepoOptions } from '../repo/repo-context.js';
import type { ExportOptions, Exported, HooksReport, ImportOptions, ImportResult, Runtime } from './runtime.js';

/**
 * The runtime registry, loaded when a runtime is asked for: it loads runtimes, which are api
 * clients. The api reaches runtimes through here only.
 */
export const runtimeRegistry = () => import('../../runtimes/registry.js');
const runtime = async (name: string, need: keyof Runtime) => (await runtimeRegistry()).runtime(name, need);

/** A runtime's transcript (file) into a chain; refused (UsageError) when the file is not the runtime's own. */
export async function importSession(ctx: RepoContext, runtimeName: string, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const r = await checkImport(runtimeName, file, opts.branch);
  return r.import!.run(ctx, file, opts);
}

/**
 * What an import checks before it writes anything (before a store is made): the runtime exists and
 * imports, `branch` is a branch name, and `file` (unless a directory) is one it writes. Returns the runtime.
 */
export async function checkImport(runtimeName: string, file: string, branch?: string): Promise<Runtime> {
  const r = await runtime(runtimeName, 'import');
  const dir = isDirectory(file);
  if (branch !== undefined) checkBranchName(branch);
  if (dir && branch !== undefined) throw new UsageError(DIR_BRANCH);
  if (!dir) checkRecognized(r, await (await runtimeRegistry()).allRuntimes(), file);
  return r;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** One file of a directory import: what it wrote, or why it failed. */
export interface FileImport {
  file: string;
  result?: ImportResult;
  error?: CtxError;
}

const JSONL = /\.jsonl$/;
const DIR_BRANCH = '-b names one branch: give a file, not a directory';

/**
 * Every session file under `dir` that the runtime takes (`Importer.files`), each imported as
 * `importSession` does (again later: only what is new). A failed file is reported, the others are
 * still imported. `onFile` hears each file as it is done.
 */
export async function importDirectory(ctx: RepoContext, runtimeName: string, dir: string, opts: ImportOptions = {}, onFile?: (f: FileImport, done: number, total: number) => void): Promise<FileImport[]> {
  const r = await runtime(runtimeName, 'import');
  if (opts.branch !== undefined) throw new UsageError(DIR_BRANCH);
  const files = sessionFiles(dir, r.import!.files ?? JSONL);
  const all = await (await runtimeRegistry()).allRuntimes();
  const out: FileImport[] = [];
  for (const file of files) {
    let f: FileImport;
    try {
      checkRecognized(r, all, file, false);
      f = { file, result: await r.import!.run(ctx, file, opts) };
    } catch (e) {
      f = { file, error: e instanceof CtxError ? e : new CtxError((e as Error).message) };
    }
    out.push(f);
    onFile?.(f, out.length, files.length);
  }
  return out;
}

/**
 * The files under `root` whose names match, sorted, each directory's files before its
 * subdirectories (a session before its subagents); a link is followed only to a file inside `root`.
 */
export function sessionFiles(root: string, names: RegExp): string[] {
  const top = realpathSync(root);
  const inside = (p: string) => {
    const rel = relative(top, p);
    return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  };
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch (e) {
      throw new BadInputError(`cannot read ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const dirs: string[] = [];
    for (const name of entries) {
      const path = join(dir, name);
      const st = lstatSync(path);
      if (st.isDirectory()) dirs.push(path);
      else if (names.test(name) && (st.isFile() || (st.isSymbolicLink() && isFileInside(path, inside)))) out.push(path);
    }
    for (const d of dirs) walk(d);
  };
  walk(root);
  return out;
}

function isFileInside(link: string, inside: (p: string) => boolean): boolean {
  try {
    return inside(realpathSync(link)) && statSync(link).isFile();
  } catch {
    return false;
  }
}

export interface ExportResult extends Exported {
  /** where the session was written; absent when `write` was false */
  path?: string;
  /** the branch the resumed session's capture continues on, when the runtime keeps one */
  branch?: string;
}

/** A context as a new session of the runtime; written where the runtime looks unless `write` is false. */
export async function exportSession(ctx: RepoContext, runtimeName: string, spec: string, opts: ExportOptions & { write?: boolean } = {}): Promise<ExportResult> {
  const r = await runtime(runtimeName, 'export');
  const e = await r.export!.render(ctx, spec, opts);
  if (opts.write === false) return e;
  const path = r.export!.path(e, opts);
  r.export!.write(path, e.bytes);
  const branch = await r.export!.track?.(ctx, e, path);
  return { ...e, path, ...(branch !== undefined ? { branch } : {}) };
}

export type HooksAction = 'install' | 'uninstall' | 'status';
export const HOOKS_ACTIONS: readonly HooksAction[] = ['install', 'uninstall', 'status'];

/** ctx's entries in the runtime's settings: `command` is what the runtime runs (`… hook <runtime>`). */
export async function hooks(runtimeName: string, action: HooksAction, opts: { user: boolean; cwd: string; env: NodeJS.ProcessEnv; command: (runtime: string) => string }): Promise<HooksReport> {
  const h = (await runtime(runtimeName, 'hooks')).hooks!;
  const path = h.path(opts.user, opts.cwd, opts.env);
  const report = action === 'install' ? h.install(path, opts.command(runtimeName)) : action === 'uninstall' ? h.uninstall(path) : h.status(path);
  const covers = h.covers?.(opts.user, path);
  return covers === undefined ? report : { ...report, covers };
}

export interface HookCall {
  /** the runtime's event, once the input is read */
  event?: string;
  session?: string;
  /** the store the capture wrote to, once found */
  gitdir?: string;
}

/**
 * One hook call of a runtime: its input (already parsed JSON) → the store found from the agent's
 * cwd (created when missing) → what is new captured under the session's lock. `call` is filled in
 * as it goes, so a failure can be logged where it belongs.
 */
export async function captureHook(runtimeName: string, input: unknown, opts: { store?: string; engine?: RepoOptions['engine']; env: NodeJS.ProcessEnv; cwd: string }, call: HookCall, note: (line: string) => void): Promise<void> {
  // the runtime's capture alone: a hook does not load its import, settings, export or tools
  const capture = await (await runtimeRegistry()).liveCapture(runtimeName);
  const event = capture.parse(input);
  if (event === null) return;
  Object.assign(call, { event: event.event, session: event.session });
  const loc = locateStore(opts.store, opts.env, opts.cwd, event.cwd || opts.cwd);
  // a store ctx may not open is not logged into either: the hook says nothing (runHook)
  if (loc.exists) checkStoreTrust(loc.gitdir, opts.env);
  call.gitdir = loc.gitdir;
  if (!loc.exists) initRepo(loc.gitdir);
  const ctx = new RepoContext(loc.gitdir, { env: opts.env, engine: opts.engine });
  try {
    const release = lockSession(loc.gitdir, event.session);
    if (!release) throw new ConflictError('another ctx hook is capturing this session; the next call catches up');
    try {
      await capture.run(ctx, event, note);
      // the live-session index: a code commit in this worktree catches the session up and links it
      if (capture.live) recordLive(loc.gitdir, runtimeName, event.session, event.cwd || opts.cwd, capture.live(event), ctx.now());
    } finally {
      release();
    }
  } finally {
    await ctx.close();
  }
}

/** Where a hook whose input could not be read logs: the store given (--store, $CTX_STORE) or found from `cwd`, if it exists and is trusted. */
export function hookLogStore(store: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  try {
    const loc = locateStore(store, env, cwd);
    if (!loc.exists) return undefined;
    checkStoreTrust(loc.gitdir, env);
    return loc.gitdir;
  } catch {
    return undefined;
  }
}

export { appendHookLog } from '../../store/derived.js';
