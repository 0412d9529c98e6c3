// The runtime plug-in contract (DESIGN.md §4): what an agent runtime (Claude Code, Codex, Gemini
// CLI, …) declares it can do. A runtime is one folder under src/runtimes/ and one line in
// src/runtimes/registry.ts; commands and the library dispatch through the registry and ask a
// runtime for a capability instead of testing its name.
import type { TranscriptStream } from './capture.js';
import type { RepoContext } from '../repo/repo-context.js';
import type { CommitFields, WrittenCommit } from '../write/write.js';
import type { LiveInfo, LiveSession } from './live.js';
import type { ArgEntry } from '../../core/tool-args.js';

export interface Runtime {
  /** what users type: `ctx import <name> …` */
  name: string;
  /** for people: "Claude Code" */
  title: string;
  /** the formats its sessions are stored in; the first is what it writes today */
  formats: readonly string[];
  /** the branch a session is imported or captured on */
  sessionBranch(session: string): string;
  import?: Importer;
  /** a transcript the runtime appends to: how new bytes split into commits (live capture, catch-up before a compaction) */
  transcript?: TranscriptStream;
  capture?: LiveCapture;
  hooks?: HookSettings;
  export?: Exporter;
  /** what its tool calls did to files: `files`, `why`, `blame`, the content index and the web view ask it */
  tools?: ToolKnowledge;
  /** where it reads its MCP servers: `ctx mcp install` registers `ctx mcp` there (loaded when asked for) */
  mcp?: () => Promise<McpSettings>;
}

export type TouchAction = 'read' | 'edit' | 'write' | 'run';

/** One file a tool call read, edited, wrote, or named in a command it ran. */
export interface ToolEffect {
  /** the path as the tool named it (absolute, or relative to the session's working directory) */
  path: string;
  action: TouchAction;
  /** the lines the call put into the file, in order, when its arguments say (a write: the whole content; an edit: the new text; a patch: its `+` lines) */
  added?: string[];
  /** the lines it took out, when its arguments say (an edit's old text, a patch's `-` lines) */
  removed?: string[];
}

export type { ArgEntry };

export interface ToolKnowledge {
  /** The files one tool call touched and how; [] for a tool that touches none or that the runtime does not know. */
  effects(call: { name: string; input: unknown }): ToolEffect[];
  /** The shell command a call runs (its shell tool), for one-line summaries; undefined for any other call. */
  command?(call: { name: string; input: unknown }): string | undefined;
  /** What the call is, in the neutral shapes the web view draws (an edit as a diff, a shell command as `$ cmd`); undefined for a tool it has no shape for. */
  view?(call: { name: string; input: unknown }): ToolView | undefined;
  /** What a call's result says, when the runtime wraps it (Codex's shell: JSON with the output and its exit code); undefined when it is plain text. */
  output?(call: { name: string; input: unknown }, result: string): ToolOutput | undefined;
}

/** A tool's output as its runtime unwraps it from the result: the text and, for a command, its exit code. */
export interface ToolOutput {
  text: string;
  exit?: number;
}

/** A todo list's item as a checklist shows it. */
export interface TodoItem {
  text: string;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
}

/**
 * A tool call in a shape no runtime owns (the web view's `view` field of a tool call): an edit's
 * replacements, a file written whole, a shell command, a todo list, a file read, a patch's files,
 * a subagent started. The page draws each the same for every runtime.
 */
export type ToolView =
  | { kind: 'edit'; path: string; edits: { old: string; new: string }[] }
  | { kind: 'write'; path: string; text: string }
  | { kind: 'shell'; command: string }
  | { kind: 'todo'; items: TodoItem[] }
  | { kind: 'read'; path: string }
  | { kind: 'patch'; files: { path: string; action: 'add' | 'update' | 'delete'; diff: string }[] }
  | { kind: 'agent'; description: string; prompt: string; agent?: string }
  /** any other tool in one line by its main arguments (`"query"`, `src/**\/*.ts in src`); `markdown`: a text it carries for people (a plan, a question); `args`: its arguments, added by the reader for the detail */
  | { kind: 'brief'; text: string; markdown?: string; args?: ArgEntry[] }
  /** not a runtime's: the reader's form of a call its runtime does not describe (src/core/tool-args.ts) */
  | { kind: 'args'; line: string; args: ArgEntry[] };

export interface ImportOptions {
  branch?: string;
  fields?: CommitFields;
  onProgress?: (done: number, total: number) => void;
}

export interface ImportResult {
  branch: string;
  session: string;
  bytes: number;
  commits: WrittenCommit[];
  /** the branch already held these bytes: nothing written */
  unchanged?: boolean;
  /** the branch tip after the import */
  tip?: string;
}

export interface Importer {
  /** for help texts: what files it reads */
  accepts: string;
  /** the file names it takes when importing a directory (default: `*.jsonl`) */
  files?: RegExp;
  run(ctx: RepoContext, file: string, opts: ImportOptions): Promise<ImportResult>;
  /** how it knows its own files; without one, `run` takes any file */
  recognizer?: Recognizer;
}

/** The shapes a runtime writes: an import refuses a file none of whose first lines has one. */
export interface Recognizer {
  /** what its files are, for people: "Claude Code transcript" */
  kind: string;
  /** Whether a parsed line (`document`: a whole file that is one JSON value) has a shape this runtime writes. */
  claims(value: unknown, document: boolean): boolean;
}

/** A hook call of the runtime, as read from its stdin. */
export interface CaptureEvent {
  /** the runtime's event name (Stop, PreCompact, …) */
  event: string;
  session: string;
  /** where the agent runs: the store is found from there */
  cwd?: string;
  /** the whole input, for the runtime's own capture */
  input: unknown;
}

export interface LiveCapture {
  /** Hook input → the event; null: the event has nothing to capture. Throws CtxError on bad input. */
  parse(input: unknown): CaptureEvent | null;
  /** Capture what is new; `note` logs a line for people (the hook's log). */
  run(ctx: RepoContext, event: CaptureEvent, note: (line: string) => void): Promise<void>;
  /** What a later catch-up of the session needs, from the event alone (no file read: the hook's cost stays), for the live-session index. */
  live?(event: CaptureEvent): LiveInfo;
  /** A code commit is being made: capture what the session's transcript holds past its chain now (trigger `tool_call`); the branch written. */
  catchUp?(ctx: RepoContext, live: LiveSession, note: (line: string) => void): Promise<string>;
  /**
   * The session whose shell tool runs this process, from the environment the runtime gives its
   * commands (a `git commit` the agent runs mid-turn, before any hook of the runtime has seen the
   * session): its id, working directory and what `catchUp` needs; null when the environment names none.
   */
  shellSession?(env: NodeJS.ProcessEnv): (LiveInfo & { session: string; cwd: string }) | null;
}

export interface HooksReport {
  path: string;
  changed: boolean;
  /** event → ctx's command there, or null */
  events: Record<string, string | null>;
  backup?: string;
  /** which of the runtime's sessions these settings reach, for people */
  covers?: string;
}

/** ctx's entries in the runtime's own settings. */
export interface HookSettings {
  /** project settings from `cwd`, or the user's */
  path(user: boolean, cwd: string, env: NodeJS.ProcessEnv): string;
  install(path: string, command: string): HooksReport;
  uninstall(path: string): HooksReport;
  status(path: string): HooksReport;
  /** which sessions the settings at `path` reach (project settings may not reach every directory) */
  covers?(user: boolean, path: string): string;
}

export interface McpReport {
  path: string;
  changed: boolean;
  /** the command line ctx's server entry runs, or null when there is none */
  command: string[] | null;
  /** which of the runtime's sessions start the server, for people */
  covers?: string;
}

/** ctx's MCP server, an entry named `ctx`, in the runtime's MCP configuration; everything else in the file stays byte for byte. */
export interface McpSettings {
  /** the project's configuration from `cwd`, or the user's */
  path(user: boolean, cwd: string, env: NodeJS.ProcessEnv): string;
  /** Adds or updates the entry running `argv`; idempotent. */
  install(path: string, argv: string[]): McpReport;
  uninstall(path: string): McpReport;
  status(path: string): McpReport;
  covers(user: boolean, path: string): string;
}

export interface ExportOptions {
  /** the new session's id; the runtime's own kind of id, random by default */
  sessionId?: string;
  /** write into this directory instead of where the runtime looks */
  dir?: string;
  /** materialize stop: compaction (default), root or an ancestor id */
  stop?: string;
  env?: NodeJS.ProcessEnv;
  /** where the session is resumed when the context names no directory (one translated from another runtime) */
  cwd?: string;
}

export interface Exported {
  sessionId: string;
  /** the commit exported, `ctx-…` */
  commit: string;
  /** the working directory the session belongs to, where its resume command must run */
  cwd: string | null;
  bytes: Uint8Array;
  lines: number;
  /** what resumes it: `claude --resume <id>` */
  command: string;
}

export interface Exporter {
  /** The session's bytes and resume command; nothing written. */
  render(ctx: RepoContext, spec: string, opts: ExportOptions): Promise<Exported>;
  /** Where the runtime looks for the session. */
  path(e: Exported, opts: ExportOptions): string;
  /** Writes the session there, never over an existing one. */
  write(path: string, bytes: Uint8Array): void;
  /** After the write: the branch the resumed session's capture continues, made at the exported commit. */
  track?(ctx: RepoContext, e: Exported, path: string): Promise<string | undefined>;
}
