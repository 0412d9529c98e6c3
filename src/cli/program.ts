// Commander built from the command table (commands/index.ts). Every command is a name and a summary
// until it is dispatched: only then is its module loaded and its arguments, options and help added.
import { Command, Help, Option } from 'commander';
import type { AnyCommand, OptionDecl } from '../commands/command.js';
import { COMMANDS, type CommandEntry } from '../commands/index.js';
import { GLOBAL_OPTIONS } from '../commands/global-options.js';
import { ROOT_HELP, helpGroup } from '../commands/groups.js';
import { Cli, type GlobalFlags } from './context.js';
import { VERSION } from './version.js';

export function option(d: OptionDecl): Option {
  const o = new Option(d.flags, d.description);
  if (d.choices) o.choices(d.choices);
  if (d.default !== undefined) o.default(d.default);
  if (d.required) o.makeOptionMandatory();
  return o;
}

export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const entries = new Map(COMMANDS.map((e) => [e.name, e]));
  const loaded = new Set<Command>();
  const program = new Command('ctx')
    .description("Store an AI agent's context as chains of commits in a git repository")
    .version(VERSION, '-V, --version');
  for (const d of GLOBAL_OPTIONS) program.addOption(option(d));
  program
    .configureHelp({
      showGlobalOptions: true,
      // the table's usage, so listing commands loads none of them
      subcommandTerm(cmd) {
        const e = entries.get(cmd.name());
        return e && !loaded.has(cmd) ? `${e.name} ${e.usage}`.trimEnd() : Help.prototype.subcommandTerm.call(this, cmd);
      },
    })
    // one line, `ctx: …`, for every usage error; exit codes are mapped in main.ts
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'ctx: ').replace(/\n\(Did you mean (.*)\?\)\n?$/, ': did you mean $1?\n')) })
    .exitOverride();

  const stubs = new Map<string, Command>();
  // listed by task, in the groups' order: commander shows headings in the order commands are added
  for (const e of [...COMMANDS].sort((a, b) => helpGroup(a.name).rank - helpGroup(b.name).rank)) {
    stubs.set(e.name, program.command(e.name).summary(e.summary).helpGroup(`${helpGroup(e.name).heading}:`));
  }
  program.commandsGroup(`${helpGroup('help').heading}:`).helpCommand(true);
  program.addHelpText('after', `\nExamples:\n${ROOT_HELP.examples.map((x) => `  ${x}`).join('\n')}`);
  const fill = async (cmd: Command) => {
    const e = entries.get(cmd.name());
    if (!e || loaded.has(cmd)) return;
    loaded.add(cmd);
    attach(cmd, e, (await e.load()).default);
  };
  program.hook('preSubcommand', (_, sub) => fill(sub));
  // `ctx help NAME` prints NAME's help without dispatching to it
  const named = positionals(argv);
  if (named[0] === 'help' && stubs.has(named[1])) await fill(stubs.get(named[1])!);
  return program;
}

/** Arguments, options, help and the action of a loaded command onto its stub. */
function attach(cmd: Command, e: CommandEntry, decl: AnyCommand): void {
  if (e.name !== decl.name) throw new Error(`commands/index.ts: ${e.name} loads ${decl.name}`);
  cmd.description(decl.description ?? decl.summary);
  for (const a of decl.args) cmd.argument(a.required ? `<${a.name}>` : `[${a.name}]`, a.description);
  for (const o of decl.options) cmd.addOption(option(o));
  if (decl.examples.length) cmd.addHelpText('after', `\nExamples:\n${decl.examples.map((x) => `  ${x}`).join('\n')}`);
  cmd.action(async (...args: unknown[]) => {
    const self = args[args.length - 1] as Command;
    const opts = args[args.length - 2];
    const io = new Cli(self.optsWithGlobals() as GlobalFlags);
    const data = await decl.run(io, args.slice(0, -2), opts);
    await decl.print(io, data, opts);
    const failed = decl.failure?.(data, opts);
    if (failed) throw failed;
  });
}

/** The words of argv that are not options or global option values. */
function positionals(argv: readonly string[]): string[] {
  const valued = new Set(GLOBAL_OPTIONS.filter((o) => /[<[]/.test(o.flags)).map((o) => o.flags.split(' ')[0]));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (valued.has(argv[i])) i++;
    else if (!argv[i].startsWith('-')) out.push(argv[i]);
  }
  return out;
}
