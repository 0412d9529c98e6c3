// `ctx hooks install|uninstall|status pi`: pi has no command hooks, so ctx writes an extension of its
// own, `ctx.ts` in `.pi/extensions/` (project) or `<agent dir>/extensions/` (user), that runs
// `ctx hook pi` after pi's events. The file is ctx's alone: its first line marks it, uninstall
// removes it whole, a file there that ctx did not write is never replaced.
import { mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BadInputError } from '../../errors/index.js';
import type { HooksReport } from '../../api/capture/runtime.js';
import { lstatOrNull, replaceWhole } from '../../store/safe-write.js';
import { TRIGGERS } from './hook.js';
import { piAgentDir } from './paths.js';

const MARKER = '// ctx: live capture of pi sessions (written by `ctx hooks install pi`; `ctx hooks uninstall pi` removes it)';
/** pi waits for an extension's handler: a capture that takes longer is left running, pi goes on. */
const WAIT_MS = 30_000;

export function extensionPath(user: boolean, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return user ? join(piAgentDir(env), 'extensions', 'ctx.ts') : join(resolve(cwd), '.pi', 'extensions', 'ctx.ts');
}

/**
 * The extension: for each event, `ctx hook pi` with the event, session file, id and directory on
 * stdin. Nothing it does can fail pi or hold it past WAIT_MS. It also names the session in the
 * environment pi's bash tool passes on, so a `git commit` the agent runs finds its session.
 * `command` (a shell command line, already quoted) is the only text put in, as a JSON string literal.
 */
export function extensionText(command: string): string {
  return `${MARKER}
import { spawn } from "node:child_process";

const COMMAND = ${JSON.stringify(command)};
const EVENTS = ${JSON.stringify(Object.keys(TRIGGERS))};

// pi -p shuts the session down before the last turn's events (and a compaction after it) arrive,
// whose ctx can no longer name the session: they go to the session named last
let known: { file: string; id: string; cwd: string } | null = null;

function session(ctx: any): { file: string; id: string; cwd: string } | null {
  try {
    const file = ctx?.sessionManager?.getSessionFile?.();
    const id = ctx?.sessionManager?.getSessionId?.();
    if (typeof file === "string" && file && typeof id === "string" && id) known = { file, id, cwd: String(ctx.cwd ?? process.cwd()) };
  } catch {}
  return known;
}

// one capture at a time, in order: each waits for the one before (pi may not wait for every handler)
let queue: Promise<void> = Promise.resolve();

function run(event: string, s: { file: string; id: string; cwd: string }): Promise<void> {
  return new Promise((done) => {
    try {
      const child = spawn(COMMAND, { shell: true, cwd: s.cwd, stdio: ["pipe", "ignore", "ignore"] });
      const timer = setTimeout(() => (child.unref(), done()), ${WAIT_MS});
      const end = () => (clearTimeout(timer), done());
      child.on("error", end);
      child.on("close", end);
      child.stdin?.on("error", () => {});
      child.stdin?.end(JSON.stringify({ event, session_file: s.file, session_id: s.id, cwd: s.cwd }));
    } catch {
      done();
    }
  });
}

function capture(event: string, ctx: any): Promise<void> {
  const s = session(ctx);
  if (s) queue = queue.then(() => run(event, s));
  return queue;
}

function name(ctx: any): void {
  const s = session(ctx);
  if (s) Object.assign(process.env, { CTX_PI_SESSION_ID: s.id, CTX_PI_SESSION_FILE: s.file });
}

export default function (pi: any) {
  pi.on("session_start", (_event: unknown, ctx: any) => name(ctx));
  pi.on("turn_start", (_event: unknown, ctx: any) => name(ctx));
  for (const event of EVENTS) pi.on(event, (_event: unknown, ctx: any) => capture(event, ctx));
}
`;
}

/** The file's text when ctx wrote it; null when there is none; an error for anything else there. */
function ours(path: string): string | null {
  const st = lstatOrNull(path);
  if (!st) return null;
  if (!st.isFile()) throw new BadInputError(`${path} is not a regular file ctx wrote; remove it and run again; nothing changed`);
  const text = readFileSync(path, 'utf8');
  if (text.split('\n')[0] !== MARKER) throw new BadInputError(`${path} is an extension ctx did not write; move it away and run again; nothing changed`);
  return text;
}

const COMMAND_LINE = /^const COMMAND = (".*");$/m;

function report(path: string, text: string | null, changed: boolean): HooksReport {
  const m = text === null ? null : COMMAND_LINE.exec(text);
  const command = m ? (JSON.parse(m[1]) as string) : null;
  return { path, changed, events: Object.fromEntries(Object.keys(TRIGGERS).map((e) => [e, command])) };
}

export function status(path: string): HooksReport {
  return report(path, ours(path), false);
}

export function install(path: string, command: string): HooksReport {
  const before = ours(path);
  const text = extensionText(command);
  if (before === text) return report(path, text, false);
  mkdirSync(dirname(path), { recursive: true });
  replaceWhole(path, text, 0o644);
  return report(path, text, true);
}

export function uninstall(path: string): HooksReport {
  const before = ours(path);
  if (before === null) return report(path, null, false);
  unlinkSync(path);
  return report(path, null, true);
}

export function covers(user: boolean, path: string): string {
  return user ? 'every pi session of this user' : `pi sessions started in ${dirname(dirname(dirname(path)))}`;
}
