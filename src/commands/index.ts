// The command table: name, usage and one-line summary of every command, and how to load it.
// `ctx --help` lists commands from here without loading one; `ctx X` loads only X's module.
// Adding a command: its file in this folder (a defineCommand default export), a line here, its help group
// in groups.ts, a man page.
import type { AnyCommand, CommandEntry } from './command.js';

export type { CommandEntry };

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'init', usage: '[path]', summary: 'create a context repo', load: () => import('./init.js') },
  { name: 'checkpoint', usage: '[options] [file]', summary: 'add a context commit to a branch; prints its id', load: () => import('./checkpoint.js') },
  { name: 'show', usage: '[options] <id>', summary: 'all metadata of a commit', load: () => import('./show.js') },
  { name: 'log', usage: '[options] [id]', summary: 'history toward the root, newest first', load: () => import('./log.js') },
  { name: 'branch', usage: '[options] [action] [name]', summary: 'list chains and their tips, or delete one', load: () => import('./branch.js') },
  { name: 'fork', usage: '<id> [name]', summary: 'a new branch at any commit', load: () => import('./fork.js') },
  { name: 'materialize', usage: '[options] <id>', summary: 'the whole context at a commit', load: () => import('./materialize.js') },
  { name: 'snapshot', usage: '[options] <branch>', summary: "store a branch's whole context as a snapshot commit on top of it", load: () => import('./snapshot.js') },
  {
    name: 'budget',
    usage: '[options] <id>',
    summary: 'tokens the context at a commit uses of a model window; exits 6 over the threshold',
    load: () => import('./budget.js'),
  },
  { name: 'threads', usage: '<id>', summary: "a chain's threads and their last activity, newest first: a status preamble", load: () => import('./threads.js') },
  { name: 'cursor', usage: '[options] <action> <branch> <agent> [id]', summary: 'how far an agent has seen a branch: set it, or show it (an annotation: it syncs)', load: () => import('./cursor.js') },
  { name: 'annotate', usage: '[options] <id>', summary: 'add mutable metadata to a commit (notes on refs/notes/ctx)', load: () => import('./annotate.js') },
  {
    name: 'compact',
    usage: '[options] <branch>',
    summary: 'add a compaction commit: the context at the tip through a compaction policy',
    load: () => import('./compact.js'),
  },
  {
    name: 'summarize',
    usage: '[options] [id]',
    summary: 'run a command over commits and annotate each with its output as summary',
    load: () => import('./summarize.js'),
  },
  { name: 'clear', usage: '[options] <branch>', summary: 'add an empty compaction: the default materialization starts after it, --stop root still reads everything', load: () => import('./clear.js') },
  { name: 'save', usage: '[options] <branch>', summary: "name a branch's context to come back to: an annotated tag with description, summary, message count and window", load: () => import('./save.js') },
  { name: 'sessions', usage: '', summary: 'saved sessions, newest first', load: () => import('./sessions.js') },
  { name: 'restore', usage: '[options] <name>', summary: "a saved session's context back as a branch's working context, on top of its tip (nothing lost)", load: () => import('./restore.js') },
  {
    name: 'resolve',
    usage: '[options]',
    summary: 'the commit a principal had at a time: the nearest at or before it; exits 4 before the first',
    load: () => import('./resolve.js'),
  },
  {
    name: 'current',
    usage: '[options]',
    summary: "the tip of a session's branch, e.g. for a ticket's context_id; exits 4 when no branch holds it",
    load: () => import('./current.js'),
  },
  { name: 'grep', usage: '[options] <pattern> [branch...]', summary: "search every session's messages, tool calls and results; exits 1 when nothing matches", load: () => import('./grep.js') },
  {
    name: 'files',
    usage: '[options] <path> [branch...]',
    summary: 'sessions and commits whose tool calls read, edited, wrote or ran a command on a path, newest first; exits 1 when none did',
    load: () => import('./files.js'),
  },
  {
    name: 'blame',
    usage: '[options] <file>',
    summary: 'git blame, then for each line the context and entry (prompt and tool call) that wrote it, or human',
    load: () => import('./blame.js'),
  },
  {
    name: 'trace',
    usage: '[options] [rev]',
    summary: 'an Agent Trace record (application/vnd.agent-trace.record+json) for a code commit: its files, the conversations that wrote which lines, ai, human or mixed',
    load: () => import('./trace.js'),
  },
  { name: 'index', usage: '[action]', summary: 'the search index grep and files answer from: show its state, or rebuild it from every ref', load: () => import('./search-index.js') },
  { name: 'gc', usage: '[options]', summary: 'pack objects, prune unreachable ones, and with --prune-expired delete branches past their retention', load: () => import('./gc.js') },
  { name: 'verify', usage: '[options] [id]', summary: "check every artifact's BLAKE3, the meta schema and chain sanity", load: () => import('./verify.js') },
  {
    name: 'why',
    usage: '[options] [rev]',
    summary: 'the contexts that made a code commit, how each is known, and the conversation that led to it',
    load: () => import('./why.js'),
  },
  {
    name: 'import',
    usage: '[options] <runtime> <file>',
    summary: 'a real transcript into a chain, split at turn boundaries (an older Gemini CLI chat: a snapshot per save); again later: only what is new',
    load: () => import('./import.js'),
  },
  {
    name: 'hook',
    usage: '<runtime> [input]',
    summary: "for a runtime's hooks: read the hook JSON on stdin (or as an argument), checkpoint what is new (always exits 0)",
    load: () => import('./hook.js'),
  },
  {
    name: 'hooks',
    usage: '[options] <action> <runtime>',
    summary: "add ctx's hooks to a runtime's settings, remove them, or show what is there",
    load: () => import('./hooks.js'),
  },
  {
    name: 'runtime',
    usage: '<action> [name]',
    summary: 'list the runtimes ctx can use (built in, and ctx-runtime-NAME executables on PATH), or check one from outside against the protocol',
    load: () => import('./runtime.js'),
  },
  {
    name: 'export',
    usage: '[options] <runtime> <id>',
    summary: "write a context as a new session of a runtime where it looks; prints the runtime's resume command",
    load: () => import('./export.js'),
  },
  { name: 'state', usage: '[options] <action> <branch> [key] [value]', summary: "structured state of a branch: init its namespaces and policy, set a key as an agent, get a value at any commit", load: () => import('./state.js') },
  { name: 'policy', usage: '[options] <action> <branch> [agent] [namespaces]', summary: "who may write which namespaces of a branch's state: set an agent's, or show the policy (versioned in the branch)", load: () => import('./policy.js') },
  { name: 'diff', usage: '<from> <to>', summary: 'what changed in the structured state between two commits, per namespace: keys added, removed, changed', load: () => import('./diff.js') },
  { name: 'audit', usage: '<branch>', summary: 'who wrote which state keys, when, in which commit: every state write of a chain, newest first', load: () => import('./audit.js') },
  { name: 'stats', usage: '<branch>', summary: "sizes of a commit's structured state: per namespace, array counts, externalized values, and the limits", load: () => import('./stats.js') },
  { name: 'migrate', usage: '[options] <branch>', summary: "move a branch's structured state to a later schema version, as one new commit (old commits untouched)", load: () => import('./migrate.js') },
  { name: 'mcp', usage: '[options] [action] [runtime]', summary: 'an MCP server over stdio on this store: search, file history, log, read a slice, the current context id, cursors, state', load: () => import('./mcp.js') },
  { name: 'usage', usage: '[options]', summary: 'tokens and estimated cost of the sessions, from the usage their transcripts record', load: () => import('./usage.js') },
  { name: 'serve', usage: '[options]', summary: 'a local read-only web view of the store: the branch graph, sessions, diffs, resume commands', load: () => import('./serve.js') },
  { name: 'remote', usage: '[action] [name] [url]', summary: 'list, add or remove git remotes of the store', load: () => import('./remote.js') },
  { name: 'push', usage: '[options] [remote]', summary: 'send sessions, saves and annotations to a remote, fast-forward only', load: () => import('./push.js') },
  { name: 'clone', usage: '[options] [url] [dir]', summary: 'a new store from a remote: every branch, tag and annotation, origin configured', load: () => import('./clone.js') },
  { name: 'fetch', usage: '[remote]', summary: 'bring a remote into refs/remotes/REMOTE/*, merge its annotations', load: () => import('./fetch.js') },
  { name: 'pull', usage: '[options] [remote] [branch...]', summary: 'fetch, then fast-forward local branches that did not diverge', load: () => import('./pull.js') },
  // completion is built from this table: it is handed the table rather than importing it
  { name: 'completion', usage: '<shell>', summary: 'print a shell completion script: bash, zsh or fish', load: async () => ({ default: (await import('./completion.js')).completion(COMMANDS, loadAll) }) },
];

/** Every declaration, loaded: for completion scripts and tests, never on a command's path. */
export async function loadAll(): Promise<AnyCommand[]> {
  return Promise.all(COMMANDS.map(async (e) => (await e.load()).default));
}
