// A command as a declared unit (GitHub CLI's `NewCmdX(f, runF)`, jj's one file per verb): arguments,
// options with help, examples, a `run` that returns data and a `print` for people, scripts and --json.
// The program (cli/program.ts), `--help` and shell completion are all built from these declarations.
import type { CommandIO } from '../output/io.js';

/** Where a value comes from, for completion: a fixed list, or a kind completion resolves itself. */
/** `runtime:<capability>`: the runtimes of the registry that have it. */
export type ValueSource = readonly string[] | 'runtime:import' | 'runtime:capture' | 'runtime:hooks' | 'runtime:mcp' | 'hooks-target' | 'runtime:export' | 'format' | 'storage-format' | 'branch' | 'remote' | 'file';

export interface ArgDecl {
  name: string;
  description: string;
  required?: boolean;
  values?: ValueSource;
}

export interface OptionDecl {
  /** commander's flags: `-b, --branch <name>`, `--all`, `--label <label...>` */
  flags: string;
  description: string;
  default?: string;
  /** enforced: any other value is a usage error */
  choices?: readonly string[];
  required?: boolean;
  /** offered by completion, not enforced (`--stop` also takes an id) */
  values?: ValueSource;
}

export interface CommandDecl<A extends unknown[] = never, O = never, D = unknown> {
  name: string;
  /** one line, for `ctx --help` (also in commands/index.ts, which a test keeps equal) */
  summary: string;
  /** more than the summary, for `ctx NAME --help` */
  description?: string;
  args: readonly ArgDecl[];
  options: readonly OptionDecl[];
  /** commands that run as written against a store (branch names, never ids of one demo store) */
  examples: readonly string[];
  /** the work: no printing of results, so the library and --json get the same data */
  run(io: CommandIO, args: A, opts: O): Promise<D>;
  /** results for people (a table on a terminal, TAB-separated lines otherwise) or --json records */
  print(io: CommandIO, data: D, opts: O): void | Promise<void>;
  /** the error that sets the exit code once the results are printed (over budget, failed refs) */
  failure?(data: D, opts: O): Error | undefined;
}

export function defineCommand<A extends unknown[], O, D>(decl: CommandDecl<A, O, D>): CommandDecl<A, O, D> {
  return decl;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = CommandDecl<any, any, any>;

/** A line of the command table (commands/index.ts). */
export interface CommandEntry {
  name: string;
  /** after the name in `ctx --help` (`[options]` when it has any, then its arguments) */
  usage: string;
  summary: string;
  load: () => Promise<{ default: AnyCommand }>;
}
