import { UsageError } from '../errors/index.js';
import { defineCommand, type AnyCommand, type CommandEntry, type OptionDecl, type ValueSource } from './command.js';
import { GLOBAL_OPTIONS } from './global-options.js';
import { runtimesWith } from './runtime-names.js';
import { SCRIPTS, type CompletionModel, type Values, type WordSpec } from './completion-scripts.js';

const shells = Object.keys(SCRIPTS);

/** The `completion` command over the command table (`loadDecls` loads every declaration). */
export const completion = (table: readonly CommandEntry[], loadDecls: () => Promise<AnyCommand[]>) =>
  defineCommand({
  name: 'completion',
  summary: 'print a shell completion script: bash, zsh or fish',
  description:
    'Print a completion script for SHELL, built from the same table as the commands: command names, their options, runtimes, formats, --stop and --view values, and branch and remote names read from the store as you type.',
  args: [{ name: 'shell', description: 'bash, zsh or fish', required: true, values: shells }],
  options: [],
  examples: ['source <(ctx completion bash)', 'ctx completion zsh > "${fpath[1]}/_ctx"', 'ctx completion fish > ~/.config/fish/completions/ctx.fish'],
  async run(_io, [shell]: [string]) {
    if (!Object.hasOwn(SCRIPTS, shell)) throw new UsageError(`unknown shell '${shell}' (${shells.join(', ')})`);
    return SCRIPTS[shell](await completionModel(table, loadDecls));
  },
  print(io, script) {
    io.out(script);
  },
  });

/** Every command's words, with value lists resolved (formats and runtimes from their registries). */
export async function completionModel(table: readonly CommandEntry[], loadDecls: () => Promise<AnyCommand[]>): Promise<CompletionModel> {
  const { formatNames, storageNames } = await import('../formats/registry.js');
  const able = {
    'runtime:import': await runtimesWith('import'),
    'runtime:capture': await runtimesWith('capture'),
    'runtime:hooks': await runtimesWith('hooks'),
    'runtime:mcp': await runtimesWith('mcp'),
    // `ctx hooks install git`: the code repository's commit hooks beside the runtimes'
    'hooks-target': [...(await runtimesWith('hooks')), 'git'],
    'runtime:export': await runtimesWith('export'),
  };
  const resolve = (v: ValueSource | undefined, choices?: readonly string[]): Values => {
    if (choices) return { words: [...choices] };
    if (v === undefined) return null;
    if (Array.isArray(v)) return { words: [...v] };
    if (typeof v === 'string' && Object.hasOwn(able, v)) return { words: able[v as keyof typeof able] };
    if (v === 'format') return { words: formatNames() };
    if (v === 'storage-format') return { words: storageNames() };
    if (v === 'file') return { files: true };
    return { dynamic: v as 'branch' | 'remote' };
  };
  const opt = (o: OptionDecl): WordSpec => ({
    names: o.flags.split(/[ ,|]+/).filter((w) => w.startsWith('-')),
    description: o.description,
    takesValue: /[<[]/.test(o.flags),
    values: resolve(o.values, o.choices),
  });
  const decls: AnyCommand[] = await loadDecls();
  return {
    globals: GLOBAL_OPTIONS.map(opt),
    commands: decls.map((d, i) => ({
      name: d.name,
      summary: table[i].summary,
      args: d.args.map((a) => ({ names: [a.name], description: a.description, takesValue: true, values: resolve(a.values) })),
      options: d.options.map(opt),
    })),
  };
}
