// Which arguments a command's fast path takes (read by entry.ts before anything else loads): `ctx
// blame FILE`, `ctx grep PATTERN [BRANCH…]` and `ctx files PATH [BRANCH…]` with their own and the
// global options, spelled as commander takes them. Anything else (help, an unknown or misspelled
// option, a bad choice, `--`, a value that looks like an option) is left to the whole CLI, which says why.

export type FastCommand = 'blame' | 'grep' | 'files';

export interface FastArgs {
  command: FastCommand;
  /** blame: [FILE]; grep and files: [PATTERN or PATH, [BRANCH…]], as commander hands a variadic argument over */
  args: unknown[];
  opts: Record<string, string | boolean>;
  flags: { store?: string; json?: boolean; color?: string; engine?: string };
}

const GLOBAL_VALUED = new Set(['--store', '--color', '--engine']);

/** Each command's own options as commands/<name>.ts declares them: valued (long or short → key), boolean (spelling → key and value). */
interface Spec {
  valued: Record<string, string>;
  bool: Record<string, [string, boolean]>;
  choices?: Record<string, readonly string[]>;
  /** commander's defaults (a lone `--no-x` defaults `x` to true) */
  defaults: Record<string, boolean>;
  /** positional arguments: exactly one (blame), or one and then any number (a variadic BRANCH…) */
  variadic: boolean;
}

/** Pinned to commands/<name>.ts's declarations by test/fast-args.test.ts. */
export const SPECS: Record<FastCommand, Spec> = {
  blame: { valued: { '--rev': 'rev' }, bool: {}, defaults: {}, variadic: false },
  grep: {
    valued: { '--role': 'role', '--since': 'since', '-n': 'n' },
    bool: {
      '--all': ['all', true],
      '-i': ['ignoreCase', true],
      '--ignore-case': ['ignoreCase', true],
      '-F': ['fixedStrings', true],
      '--fixed-strings': ['fixedStrings', true],
      '-w': ['wordRegexp', true],
      '--word-regexp': ['wordRegexp', true],
      '--no-index': ['index', false],
    },
    choices: { '--role': ['user', 'assistant', 'tool'] },
    defaults: { index: true },
    variadic: true,
  },
  files: { valued: {}, bool: { '--no-index': ['index', false] }, defaults: { index: true }, variadic: true },
};
const CHOICES: Record<string, readonly string[]> = { '--color': ['auto', 'always', 'never'], '--engine': ['auto', 'git', 'isogit'] };

/** `[globals] COMMAND ARG… [options]` → its arguments; null: not a fast command, or anything the fast path would read differently from commander. */
export function fastArgs(argv: string[]): FastArgs | null {
  const flags: FastArgs['flags'] = {};
  const opts: FastArgs['opts'] = {};
  const positional: string[] = [];
  let command: FastCommand | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = /^(--[a-z-]+)=(.*)$/s.exec(a);
    const name = eq ? eq[1] : a;
    const spec = command && SPECS[command];
    if (name === '--json' && !eq) flags.json = true;
    else if (GLOBAL_VALUED.has(name) || spec?.valued[name]) {
      const value = eq ? eq[2] : argv[++i];
      const choices = CHOICES[name] ?? spec?.choices?.[name];
      if (value === undefined || (!eq && value.startsWith('-')) || (choices && !choices.includes(value))) return null;
      if (spec?.valued[name]) opts[spec.valued[name]] = value;
      else flags[name.slice(2) as 'store' | 'color' | 'engine'] = value;
    } else if (spec && !eq && (spec.bool[a] || /^-[a-zA-Z]{2,}$/.test(a))) {
      // `-iwF`: short boolean options together, as commander reads them
      const each = spec.bool[a] ? [a] : [...a.slice(1)].map((c) => `-${c}`);
      for (const o of each) {
        if (!spec.bool[o]) return null;
        opts[spec.bool[o][0]] = spec.bool[o][1];
      }
    } else if (a.startsWith('-')) return null;
    else if (command === undefined) {
      if (!Object.hasOwn(SPECS, a)) return null;
      command = a as FastCommand;
    } else positional.push(a);
  }
  if (command === undefined || positional.length === 0) return null;
  const spec = SPECS[command];
  if (!spec.variadic && positional.length !== 1) return null;
  const args = spec.variadic ? [positional[0], positional.slice(1)] : positional;
  return { command, args, opts: { ...spec.defaults, ...opts }, flags };
}
