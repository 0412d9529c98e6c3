// Which arguments are `ctx hook …`: read by entry.ts before anything else loads, so a hook (run on
// every turn of an agent and every commit) starts no commander and no command table.

export interface HookArgs {
  runtime?: string;
  input?: string;
  /** `hook git <hook> ARGS…`: the git hook's name and git's arguments */
  rest?: string[];
  flags: { store?: string; engine?: string };
}

/** `[--store P] [--engine E] hook RUNTIME [INPUT] [--store P] …` → the hook's arguments; null: not the hook, or --help. */
export function hookArgs(argv: string[]): HookArgs | null {
  const flags: { store?: string; engine?: string } = {};
  let seen = false;
  let runtime: string | undefined;
  let input: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = /^--(store|engine|color)=(.*)$/.exec(a);
    if (eq) {
      if (eq[1] !== 'color') flags[eq[1] as 'store' | 'engine'] = eq[2];
    } else if (a === '--store' || a === '--engine' || a === '--color') {
      if (a !== '--color') flags[a.slice(2) as 'store' | 'engine'] = argv[i + 1];
      i++;
    } else if (a === '--json') {
      // nothing to print either way
    } else if (!seen && a === 'hook') seen = true;
    // `hook git <hook> ARGS…`: git's own arguments, passed on as they are
    else if (seen && runtime === undefined && a === 'git' && i + 1 < argv.length && argv[i + 1] !== '--help' && argv[i + 1] !== '-h') return { runtime: a, rest: argv.slice(i + 1), flags };
    else if (seen && runtime === undefined && !a.startsWith('-')) runtime = a;
    // the hook input as an argument (Codex's notify program gets it so) instead of stdin
    else if (runtime !== undefined && input === undefined && a.startsWith('{')) input = a;
    else return null;
  }
  return seen ? { runtime, input, flags } : null;
}

export interface CheckpointArgs {
  branch: string;
  format: string;
  file: string;
  flags: { store?: string; engine?: string };
}

/**
 * `[--store P] [--engine E] checkpoint -b B --format F FILE` → its arguments: the plain checkpoint an
 * agent's wrapper runs every turn, taken by the one-file bundle. Any other option, stdin (`-`) or
 * --help: null, and the whole CLI runs it.
 */
export function checkpointArgs(argv: string[]): CheckpointArgs | null {
  const named: Record<string, string | undefined> = {};
  const NAMES: Record<string, string> = { '--store': 'store', '--engine': 'engine', '-b': 'branch', '--branch': 'branch', '--format': 'format' };
  let seen = false;
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = /^(--store|--engine|--branch|--format)=(.*)$/.exec(a);
    const name = eq ? NAMES[eq[1]] : NAMES[a];
    if (name !== undefined) {
      const v = eq ? eq[2] : argv[++i];
      if (v === undefined || named[name] !== undefined) return null;
      named[name] = v;
    } else if (!seen && a === 'checkpoint') seen = true;
    else if (seen && file === undefined && a !== '-' && !a.startsWith('-')) file = a;
    else return null;
  }
  const { store, engine, branch, format } = named;
  if (!seen || file === undefined || branch === undefined || format === undefined || branch.startsWith('-') || format.startsWith('-')) return null;
  return { branch, format, file, flags: { ...(store !== undefined ? { store } : {}), ...(engine !== undefined ? { engine } : {}) } };
}
