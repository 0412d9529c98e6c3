// `ctx --help` lists commands by task (commands/groups.ts), then examples; every command is in a group.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/index.js';
import { HELP_GROUPS, OTHER_GROUP, ROOT_HELP, helpGroup } from '../src/commands/groups.js';
import { ROOT, ctx, newStore } from './helpers.js';

// pinned whole: a changed heading, order, summary or example shows here
const HELP = `Usage: ctx [options] [command]

Store an AI agent's context as chains of commits in a git repository

Options:
  -V, --version                                            output the version number
  --store <path>                                           context repo (default: $CTX_STORE, else the nearest .ctx/ upward, else ./.ctx)
  --json                                                   JSON output (one document, or JSON Lines for lists), every record with "v":1
  --color <when>                                           colour output (choices: "auto", "always", "never", default: "auto")
  --engine <name>                                          object engine (default: $CTX_ENGINE, ctx.engine, auto) (choices: "auto", "git", "isogit")
  -h, --help                                               display help for command

Capture:
  init [path]                                              create a context repo
  hooks [options] <action> <runtime>                       add ctx's hooks to a runtime's settings, remove them, or show what is there
  hook <runtime> [input]                                   for a runtime's hooks: read the hook JSON on stdin (or as an argument), checkpoint what is new (always exits 0)
  import [options] <runtime> <file>                        a real transcript into a chain, split at turn boundaries (an older Gemini CLI chat: a snapshot per save); again later: only what is new
  checkpoint [options] [file]                              add a context commit to a branch; prints its id
  snapshot [options] <branch>                              store a branch's whole context as a snapshot commit on top of it
  save [options] <branch>                                  name a branch's context to come back to: an annotated tag with description, summary, message count and window
  restore [options] <name>                                 a saved session's context back as a branch's working context, on top of its tip (nothing lost)
  annotate [options] <id>                                  add mutable metadata to a commit (notes on refs/notes/ctx)
  summarize [options] [id]                                 run a command over commits and annotate each with its output as summary
  mcp [options] [action] [runtime]                         an MCP server over stdio on this store: search, file history, log, read a slice, the current context id, cursors, state
  runtime <action> [name]                                  list the runtimes ctx can use (built in, and ctx-runtime-NAME executables on PATH), or check one from outside against the protocol

Browse:
  log [options] [id]                                       history toward the root, newest first
  show [options] <id>                                      all metadata of a commit
  branch [options] [action] [name]                         list chains and their tips, or delete one
  fork <id> [name]                                         a new branch at any commit
  sessions                                                 saved sessions, newest first
  threads <id>                                             a chain's threads and their last activity, newest first: a status preamble
  grep [options] <pattern> [branch...]                     search every session's messages, tool calls and results; exits 1 when nothing matches
  files [options] <path> [branch...]                       sessions and commits whose tool calls read, edited, wrote or ran a command on a path, newest first; exits 1 when none did
  why [options] [rev]                                      the contexts that made a code commit, how each is known, and the conversation that led to it
  blame [options] <file>                                   git blame, then for each line the context and entry (prompt and tool call) that wrote it, or human
  trace [options] [rev]                                    an Agent Trace record (application/vnd.agent-trace.record+json) for a code commit: its files, the conversations that wrote which lines, ai, human or mixed
  resolve [options]                                        the commit a principal had at a time: the nearest at or before it; exits 4 before the first
  current [options]                                        the tip of a session's branch, e.g. for a ticket's context_id; exits 4 when no branch holds it
  materialize [options] <id>                               the whole context at a commit
  budget [options] <id>                                    tokens the context at a commit uses of a model window; exits 6 over the threshold
  usage [options]                                          tokens and estimated cost of the sessions, from the usage their transcripts record
  export [options] <runtime> <id>                          write a context as a new session of a runtime where it looks; prints the runtime's resume command
  serve [options]                                          a local read-only web view of the store: the branch graph, sessions, diffs, resume commands

Share:
  remote [action] [name] [url]                             list, add or remove git remotes of the store
  clone [options] [url] [dir]                              a new store from a remote: every branch, tag and annotation, origin configured
  push [options] [remote]                                  send sessions, saves and annotations to a remote, fast-forward only
  fetch [remote]                                           bring a remote into refs/remotes/REMOTE/*, merge its annotations
  pull [options] [remote] [branch...]                      fetch, then fast-forward local branches that did not diverge

State:
  state [options] <action> <branch> [key] [value]          structured state of a branch: init its namespaces and policy, set a key as an agent, get a value at any commit
  policy [options] <action> <branch> [agent] [namespaces]  who may write which namespaces of a branch's state: set an agent's, or show the policy (versioned in the branch)
  cursor [options] <action> <branch> <agent> [id]          how far an agent has seen a branch: set it, or show it (an annotation: it syncs)
  diff <from> <to>                                         what changed in the structured state between two commits, per namespace: keys added, removed, changed
  audit <branch>                                           who wrote which state keys, when, in which commit: every state write of a chain, newest first
  stats <branch>                                           sizes of a commit's structured state: per namespace, array counts, externalized values, and the limits
  migrate [options] <branch>                               move a branch's structured state to a later schema version, as one new commit (old commits untouched)

Maintenance:
  verify [options] [id]                                    check every artifact's BLAKE3, the meta schema and chain sanity
  compact [options] <branch>                               add a compaction commit: the context at the tip through a compaction policy
  clear [options] <branch>                                 add an empty compaction: the default materialization starts after it, --stop root still reads everything
  gc [options]                                             pack objects, prune unreachable ones, and with --prune-expired delete branches past their retention
  index [action]                                           the search index grep and files answer from: show its state, or rebuild it from every ref
  completion <shell>                                       print a shell completion script: bash, zsh or fish
  help [command]                                           display help for command

Examples:
  ctx init
  ctx hooks install claude-code
  ctx log alice/auth-fix
  ctx grep 'token refresh'
  ctx why HEAD
  ctx export claude-code alice/auth-fix
  ctx remote add origin https://git.example.com/team/agent-context.git
  ctx pull origin
`;

describe('ctx --help', () => {
  it('prints the commands under Capture, Browse, Share, State, Maintenance, then examples', () => {
    const store = newStore();
    for (const args of [['--help'], ['help'], ['-h']]) expect(ctx(store, args)).toMatchObject({ code: 0, stdout: HELP, stderr: '' });
  });

  it('keeps `ctx help NAME` and `ctx NAME --help` as they were', () => {
    const store = newStore();
    const own = ctx(store, ['log', '--help']);
    expect(own.stdout.split('\n')[0]).toBe('Usage: ctx log [options] [id]');
    expect(ctx(store, ['help', 'log']).stdout).toBe(own.stdout);
    expect(own.stdout).not.toContain('\nCapture:\n');
  });
});

describe('the help groups', () => {
  it('put every command in exactly one group: a new command needs a line in commands/groups.ts', () => {
    const grouped = HELP_GROUPS.flatMap((g) => g.commands);
    expect(COMMANDS.map((e) => e.name).filter((n) => !grouped.includes(n))).toEqual([]);
    expect(grouped).toEqual([...new Set(grouped)]);
    // grouped ahead of their commands (issue 24): `help` is commander's
    const known = new Set([...COMMANDS.map((e) => e.name), 'help', 'clone', 'usage']);
    expect(grouped.filter((n) => !known.has(n))).toEqual([]);
  });

  it('lists an ungrouped command under Other, after every group', () => {
    expect(helpGroup('hello')).toEqual({ heading: OTHER_GROUP, rank: HELP_GROUPS.flatMap((g) => g.commands).length });
    expect(helpGroup('init')).toEqual({ heading: 'Capture', rank: 0 });
    expect(helpGroup('help').heading).toBe('Maintenance');
  });

  it('gives 5 to 8 examples, each a command that exists', () => {
    expect(ROOT_HELP.examples.length).toBeGreaterThanOrEqual(5);
    expect(ROOT_HELP.examples.length).toBeLessThanOrEqual(8);
    for (const x of ROOT_HELP.examples) expect(COMMANDS.map((e) => e.name)).toContain(x.split(' ')[1]);
  });

  it('ctx.1 lists the commands under the same headings, in the same order', () => {
    const page = readFileSync(join(ROOT, 'man', 'ctx.1'), 'utf8');
    const section = page.slice(page.indexOf('\n.SH COMMANDS\n'), page.indexOf('\n.SH GLOBAL OPTIONS\n'));
    const listed = [...section.matchAll(/^\.SS (.+)$|^\.TP\n\.B (\S+)$/gm)].map((m) => m[1] ?? m[2]);
    const names = new Set(COMMANDS.map((e) => e.name));
    expect(listed).toEqual(HELP_GROUPS.flatMap((g) => [g.heading, ...g.commands.filter((n) => names.has(n))]));
  });
});
