// Which arguments a command's fast path takes (read by entry.ts before anything else loads): `ctx
// blame FILE` with its own and the global options, spelled as commander takes them. Anything else
// (help, an unknown or misspelled option, a bad choice) is left to the whole CLI, which says why.

export interface FastArgs {
  command: 'blame';
  args: string[];
  opts: Record<string, string>;
  flags: { store?: string; json?: boolean; color?: string; engine?: string };
}

const VALUED = new Set(['--store', '--color', '--engine', '--rev']);
const CHOICES: Record<string, readonly string[]> = { '--color': ['auto', 'always', 'never'], '--engine': ['auto', 'git', 'isogit'] };

/** `[globals] blame FILE [--rev R] [globals]` → its arguments; null: not a fast command, or anything the fast path would read differently from commander. */
export function fastArgs(argv: string[]): FastArgs | null {
  const out: FastArgs = { command: 'blame', args: [], opts: {}, flags: {} };
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = /^(--[a-z]+)=(.*)$/s.exec(a);
    const name = eq ? eq[1] : a;
    if (name === '--json' && !eq) out.flags.json = true;
    else if (VALUED.has(name)) {
      const value = eq ? eq[2] : argv[++i];
      if (value === undefined || (!eq && value.startsWith('-')) || (CHOICES[name] && !CHOICES[name].includes(value))) return null;
      if (name === '--rev') {
        if (command === undefined) return null;
        out.opts.rev = value;
      } else out.flags[name.slice(2) as 'store' | 'color' | 'engine'] = value;
    } else if (a.startsWith('-')) return null;
    else if (command === undefined) command = a;
    else out.args.push(a);
  }
  return command === 'blame' && out.args.length === 1 ? out : null;
}
