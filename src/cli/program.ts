// The command table: options are declared here; each command's code is loaded only when it runs.
import { Command, Option } from 'commander';
import { Cli, type GlobalFlags } from './context.js';
import { VERSION } from './version.js';

type Loader = () => Promise<{ run: (cli: Cli, ...args: never[]) => Promise<unknown> }>;

function action(load: Loader) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const cli = new Cli(cmd.optsWithGlobals() as GlobalFlags);
    const { run } = await load();
    await run(cli, ...(args.slice(0, -1) as never[]));
  };
}

function metadataOptions(cmd: Command): Command {
  return cmd
    .option('--template <name>', 'what kind of agent (default: $CTX_TEMPLATE, else agent; claude-code on import)')
    .option('--principal <name>', 'who ran it (default: $CTX_PRINCIPAL or the OS user)')
    .option('--machine <name>', 'where it ran (default: $CTX_MACHINE or the host name)')
    .option('--session <id>', 'session id (default: $CTX_SESSION; the transcript\'s on import)')
    .option('--trigger <t>', 'turn_boundary, tool_call, compaction, session_end, explicit (default) or import (default on import)')
    .option('--ticket <id>', 'associated ticket')
    .option('--thread <id>', 'associated thread')
    .option('--summary <text>', 'summary of the commit')
    .addOption(new Option('--secrets <policy>', 'found secrets: redact, block or warn (default: git config ctx.secrets, else redact)').choices(['redact', 'block', 'warn']));
}

export function buildProgram(): Command {
  const program = new Command('ctx')
    .description("Store an AI agent's context as chains of commits in a git repository")
    .version(VERSION, '-V, --version')
    .option('--store <path>', 'context repo (default: $CTX_STORE, else the nearest .ctx/ upward, else ./.ctx)')
    .option('--json', 'JSON output (one document, or JSON Lines for lists), every record with "v":1')
    .addOption(new Option('--color <when>', 'colour output').choices(['auto', 'always', 'never']).default('auto'))
    .addOption(new Option('--engine <name>', 'object engine (default: $CTX_ENGINE, ctx.engine, auto)').choices(['auto', 'git', 'isogit']))
    .configureHelp({ showGlobalOptions: true })
    // one line, `ctx: …`, for every usage error; exit codes are mapped in main.ts
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'ctx: ')) })
    .exitOverride();

  program.command('init').argument('[path]', 'where (default: --store, $CTX_STORE, else ./.ctx)').description('create a context repo').action(action(() => import('../commands/init.js')));

  metadataOptions(
    program
      .command('checkpoint')
      .description('add a context commit to a branch; prints its id')
      .argument('[file]', 'artifact bytes, or - for stdin (default)')
      .requiredOption('-b, --branch <name>', 'branch to extend (created when new)')
      .requiredOption('--format <format>', 'artifact format: claude-code-v1, codex-rollout-v1, codex-rollout-v0, gemini-cli-chat-v1, bureau-agent-v1, openai-chat-v1')
      .addOption(new Option('--type <type>', 'commit type').choices(['delta', 'compaction', 'snapshot']).default('delta'))
      .option('--parent <id>', 'the commit this follows; the branch must still point there')
      .option('--retry', 'when the branch moved, re-read its tip and try again'),
  ).action(action(() => import('../commands/checkpoint.js')));

  program
    .command('show')
    .description('all metadata of a commit')
    .argument('<id>', 'commit id, branch, tag or NAME~N')
    .option('--delta', "write the commit's artifact bytes to stdout")
    .action(action(() => import('../commands/show.js')));

  program
    .command('log')
    .description('history toward the root, newest first')
    .argument('[id]', 'where to start (default: HEAD, else every branch)')
    .option('-n <count>', 'at most this many commits')
    .option('--all', 'every branch')
    .option('--graph', 'draw the chains and where they fork')
    .action(action(() => import('../commands/log.js')));

  program
    .command('branch')
    .description('list chains and their tips, or delete one')
    .argument('[action]', 'list (default) or delete')
    .argument('[name]', 'the branch to delete')
    .action(action(() => import('../commands/branch.js')));

  program
    .command('fork')
    .description('a new branch at any commit')
    .argument('<id>', 'commit to fork from')
    .argument('[name]', 'new branch (default: fork/<12 hex>)')
    .action(action(() => import('../commands/fork.js')));

  program
    .command('materialize')
    .description('the whole context at a commit')
    .argument('<id>', 'commit id, branch, tag or NAME~N')
    .option('--format <format>', 'output format (default: the stored one): claude-code-v1, codex-rollout-v1, codex-rollout-v0, gemini-cli-chat-v1, bureau-agent-v1, openai-chat-v1, markdown, raw')
    .option('--stop <stop>', 'compaction (default), root, or an ancestor id', 'compaction')
    .option('-o, --output <file>', 'write to FILE instead of stdout')
    .option('--verify', "recompute every artifact's BLAKE3 on the way")
    .option('--view <view>', 'reasoning (default: every entry) or conversation (user and assistant text only)')
    .option('--mask-tool-outputs <n>', 'replace tool results older than the last N turns by a placeholder (pinned commits kept)')
    .action(action(() => import('../commands/materialize.js')));

  program
    .command('budget')
    .description('tokens the context at a commit uses of a model window; exits 6 over the threshold')
    .argument('<id>', 'commit id, branch, tag or NAME~N')
    .requiredOption('--window <tokens>', "the model's context window")
    .option('--reserve-output <tokens>', "kept free for the model's answer (default 0)")
    .option('--reserve-system <tokens>', 'kept free for the system prompt and tool definitions (default 0)')
    .option('--threshold <fraction>', 'over when used / available exceeds it (default 0.8)')
    .option('--stop <stop>', 'compaction (default), root, or an ancestor id', 'compaction')
    .option('--chars', 'estimate with characters/4 instead of the tokenizer')
    .action(action(() => import('../commands/budget.js')));

  program
    .command('annotate')
    .description('add mutable metadata to a commit (notes on refs/notes/ctx)')
    .argument('<id>', 'commit to annotate')
    .option('--summary <text>', 'new summary')
    .option('--label <label...>', 'labels')
    .option('--pin', 'pin the commit: compaction keeps its entries')
    .option('--unpin', 'remove a pin')
    .option('--principal <name>', 'who annotates (default: $CTX_PRINCIPAL or the OS user)')
    .action(action(() => import('../commands/annotate.js')));

  metadataOptions(
    program
      .command('compact')
      .description('add a compaction commit: the context at the tip through a compaction policy')
      .argument('<branch>', 'the branch to compact')
      .option('--summary-file <file>', 'the summary that replaces the compacted messages (- for stdin)')
      .option('--summarizer <cmd>', 'shell command: the messages to summarize as JSON on stdin, the summary on stdout')
      .option('--policy <stages>', 'comma-separated stages, in order: dedupe, prune-tool-outputs, summarize, truncate (default: summarize)')
      .option('--budget <tokens>', 'target tokens: later stages are skipped once under it; truncate needs it')
      .option('--keep-turns <n>', 'the latest turns kept as they are (default 2)')
      .option('--transcript <file>', 'the Claude Code transcript the branch captures: bytes past the chain are checkpointed first'),
  ).action(action(() => import('../commands/compact.js')));

  program
    .command('summarize')
    .description('run a command over commits and annotate each with its output as summary')
    .argument('[id]', 'a branch or commit: its chain (default: every branch)')
    .requiredOption('--command <cmd>', "shell command: the commit's delta on stdin, the summary on stdout (first line, 200 characters)")
    .option('--all', 'every branch')
    .option('--missing', 'only commits without a summary (annotated or in meta.json)')
    .option('--materialized', 'the whole context at the commit on stdin instead of its delta')
    .option('--jobs <n>', 'commands run at once (default 1)')
    .option('--principal <name>', 'who annotates (default: $CTX_PRINCIPAL or the OS user)')
    .action(action(() => import('../commands/summarize.js')));

  program
    .command('verify')
    .description("check every artifact's BLAKE3, the meta schema and chain sanity")
    .argument('[id]', 'chain to check (default: every branch)')
    .option('--all', 'every branch')
    .action(action(() => import('../commands/verify.js')));

  metadataOptions(
    program
      .command('import')
      .description('a real transcript into a chain: split at turn boundaries (Claude Code, Codex), or a snapshot per saved chat (Gemini CLI)')
      .argument('<runtime>', 'claude-code, codex or gemini-cli')
      .argument('<file>', 'transcript file: Claude Code session .jsonl, Codex rollout .jsonl, Gemini CLI chat .json')
      .option('-b, --branch <name>', 'branch (default: claude/, codex/ or gemini/<session id>); gemini-cli adds to an existing one'),
  ).action(action(() => import('../commands/import.js')));

  // `ctx hook …` normally takes the fast path in main.ts; this entry serves --help
  program
    .command('hook')
    .description('for Claude Code hooks: read the hook JSON on stdin, checkpoint what is new (always exits 0)')
    .argument('<runtime>', 'claude-code')
    .action(action(() => import('../commands/hook.js')));

  program
    .command('hooks')
    .description("add ctx to Claude Code's settings.json, remove it, or show what is there")
    .argument('<action>', 'install, uninstall or status')
    .argument('<runtime>', 'claude-code')
    .option('--user', 'the user settings ($CLAUDE_CONFIG_DIR or ~/.claude) instead of the project')
    .action(action(() => import('../commands/hooks.js')));

  program
    .command('export')
    .description('write a context as a new Claude Code session; prints the claude --resume command')
    .argument('<runtime>', 'claude-code')
    .argument('<id>', 'commit id, branch, tag or NAME~N')
    .option('--session-id <uuid>', 'the new session id (default: random)')
    .option('--dir <dir>', 'write into DIR instead of <config>/projects/<encoded cwd>/')
    .option('--stop <stop>', 'compaction (default), root, or an ancestor id', 'compaction')
    .option('--stdout', 'write the session to stdout instead of a file')
    .action(action(() => import('../commands/export.js')));

  // sync with git remotes (issue 4): remote, push, fetch, pull
  program
    .command('remote')
    .description('list, add or remove git remotes of the store')
    .argument('[action]', 'list (default), add or remove')
    .argument('[name]', 'remote name')
    .argument('[url]', 'URL for add: https://…, ssh://…, host:path or a local path')
    .action(action(() => import('../commands/remote.js')));
  program
    .command('push')
    .description('send branches, tags and annotations to a remote, fast-forward only')
    .argument('[remote]', 'remote name (default: the only one, else origin)')
    .option('--allow-secrets', 'push even when the secret scan finds something')
    .action(action(() => import('../commands/push.js')));
  program
    .command('fetch')
    .description('bring a remote into refs/remotes/REMOTE/*, merge its annotations')
    .argument('[remote]', 'remote name (default: the only one, else origin)')
    .action(action(() => import('../commands/fetch.js')));
  program
    .command('pull')
    .description('fetch, then fast-forward local branches that did not diverge')
    .argument('[remote]', 'remote name (default: the only one, else origin)')
    .action(action(() => import('../commands/pull.js')));

  return program;
}
