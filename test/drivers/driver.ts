// A runtime's part in the cross-runtime resume matrix (test/resume-matrix.test.ts): its real CLI run
// offline against a mock model API, once to write a session, and again to resume a session that
// `ctx export` wrote. Every driver plays the same script, so what each model receives compares.
//
// Adding a runtime: test/drivers/<runtime>.ts implementing ResumeDriver, one line in index.ts.

/** The fixed script every driver's mock follows, and the file its tool call reads. */
export const SCRIPT = {
  /** the file the first turn's tool call reads, in the project directory */
  file: 'notes.txt',
  /** its content */
  notes: 'hello from notes\n',
  /** the source session's prompt */
  prompt: 'read notes.txt please',
  /** the answer once the tool result is there */
  answer: 'The notes say hello.',
  /** the prompt the target resumes with */
  next: 'and now?',
  /** the answer to every later turn (a resumed one included) */
  resumed: 'Resumed.',
} as const;

/**
 * One message part as the model received it, neutral enough to compare across APIs: user or
 * assistant text; a tool call (`text`: `NAME ARGS`, the arguments as compact JSON); a tool result
 * (`text`: its output as text). `id` ties a result to its call where the API carries one.
 */
export { RUN_TIMEOUT_MS, runCli, type CliRun } from '../agent-clis.js';
import type { CliRun } from '../agent-clis.js';

export interface Row {
  role: 'user' | 'assistant';
  kind: 'text' | 'call' | 'result';
  text: string;
  id?: string;
}

/** A driver's running sandbox: its mock API(s) up, its temp HOME and config dirs made. */
export interface DriverHandle {
  /** the project directory every run uses as its cwd; it holds SCRIPT.file */
  project: string;
  /** what `ctx export` needs to write where this CLI looks (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME …) */
  env: Record<string, string>;
  /** stops the mock(s); the test removes the directories */
  close(): Promise<void>;
}

/** A session the source runtime wrote: what `ctx import RUNTIME` takes, and its id. */
export interface SourceSession {
  /** the path `ctx import <runtime> PATH` imports (a transcript file, a directory or a database) */
  transcript: string;
  /** the runtime's session id */
  session: string;
  /** the conversation of the turn's last request (prompt, tool call, result), as `conversation` gives it */
  rows: Row[];
}

/** The record `ctx export RUNTIME ID --json` prints. */
export interface Exported {
  v: 1;
  session_id: string;
  path: string;
  command: string;
  branch?: string;
}

export interface ResumeDriver<H extends DriverHandle = DriverHandle, Req = unknown> {
  /** the runtime's name in ctx (`ctx import|export RUNTIME`) */
  runtime: string;
  /** the agent command in .ci/agents (`claude`, `codex` …): the suite is skipped or failed without it */
  cli: string;
  /** Why the driver cannot run here (beyond a missing CLI, e.g. a binary that does not start), or null. */
  missing?(): string | null;
  /**
   * Starts the mock API(s) on 127.0.0.1 with SCRIPT (the first request of a session: one tool call
   * reading SCRIPT.file; then SCRIPT.answer; every later turn SCRIPT.resumed) and makes the temp
   * HOME and config under `dir`; every run uses `project` as its cwd.
   */
  start(dir: string, project: string): Promise<H>;
  /** Runs one real turn of the CLI with `prompt` (one tool round trip, then SCRIPT.answer); throws if it fails. */
  firstSession(h: H, prompt: string): Promise<SourceSession>;
  /**
   * Runs the resume command `exported.command` (as the CLI's non-interactive form) with `prompt`,
   * and returns the request the mock received for that resumed turn: the one carrying the
   * exported conversation and the new prompt. Throws if the CLI fails or the command is not its own.
   */
  resume(h: H, exported: Exported, prompt: string): Promise<Req>;
  /** The conversation `request` carries as rows, in order, without the runtime's own system/context additions. */
  conversation(request: Req): Row[];
}

/** Compact JSON for a tool call's arguments, whether the API sends an object or a JSON string. */
export function callText(name: string, args: unknown): string {
  const value = typeof args === 'string' ? JSON.parse(args) : args;
  return `${name} ${JSON.stringify(value ?? {})}`;
}

/** Throws with the CLI's output unless it exited 0. */
export function check(what: string, r: CliRun): CliRun {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`);
  return r;
}

/** The words of `exported.command` after the expected prefix (`claude --resume`), or a throw naming the command. */
export function resumeArgs(exported: Exported, prefix: string): string[] {
  const words = exported.command.split(' ');
  const head = prefix.split(' ');
  if (head.some((w, i) => words[i] !== w)) throw new Error(`unexpected resume command: ${exported.command} (expected ${prefix} …)`);
  return words.slice(head.length);
}

/**
 * A Messages-API request's conversation as rows (user and assistant turns; text, tool_use, tool_result).
 * `texts` turns one text block into the rows the runtime's model saw (none for the runtime's own additions).
 */
export function messagesRows(messages: readonly { role: string; content: unknown }[], texts: (text: string) => string[] = (t) => [t]): Row[] {
  const rows: Row[] = [];
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const role = m.role;
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Record<string, unknown>[]);
    for (const b of blocks) {
      if (b.type === 'text') for (const text of texts(String(b.text))) rows.push({ role, kind: 'text', text });
      else if (b.type === 'tool_use') rows.push({ role, kind: 'call', text: callText(String(b.name), b.input), id: String(b.id) });
      else if (b.type === 'tool_result') {
        const text = typeof b.content === 'string' ? b.content : (b.content as { text?: string }[]).map((x) => x.text ?? '').join('');
        rows.push({ role, kind: 'result', text, id: String(b.tool_use_id) });
      }
    }
  }
  return rows;
}

/** The first request the mock received after `before` of them: what the resume sent. */
export function sentSince<R>(turns: readonly R[], before: number, command: string): R {
  const sent = turns[before];
  if (sent === undefined) throw new Error(`${command}: the mock received no request`);
  return sent;
}
