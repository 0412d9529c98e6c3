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
    .option('--summary <text>', 'summary of the commit');
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
      .requiredOption('--format <format>', 'artifact format: claude-code-v1, bureau-agent-v1')
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
    .option('--format <format>', 'output format (default: the stored one): claude-code-v1, bureau-agent-v1, raw')
    .option('--stop <stop>', 'compaction (default), root, or an ancestor id', 'compaction')
    .option('-o, --output <file>', 'write to FILE instead of stdout')
    .option('--verify', "recompute every artifact's BLAKE3 on the way")
    .action(action(() => import('../commands/materialize.js')));

  program
    .command('annotate')
    .description('add mutable metadata to a commit (notes on refs/notes/ctx)')
    .argument('<id>', 'commit to annotate')
    .option('--summary <text>', 'new summary')
    .option('--label <label...>', 'labels')
    .option('--principal <name>', 'who annotates (default: $CTX_PRINCIPAL or the OS user)')
    .action(action(() => import('../commands/annotate.js')));

  program
    .command('verify')
    .description("check every artifact's BLAKE3, the meta schema and chain sanity")
    .argument('[id]', 'chain to check (default: every branch)')
    .option('--all', 'every branch')
    .action(action(() => import('../commands/verify.js')));

  metadataOptions(
    program
      .command('import')
      .description('a real transcript into a new chain, split at turn boundaries')
      .argument('<runtime>', 'claude-code')
      .argument('<file>', 'transcript file')
      .option('-b, --branch <name>', 'branch to create (default: claude/<session id>)'),
  ).action(action(() => import('../commands/import.js')));

  return program;
}
