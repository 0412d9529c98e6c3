// Entry point of the `ctx` binary: parse, run, map errors to one line and an exit code.
import { CtxError, EXIT } from '../errors/index.js';
import { VERSION } from './version.js';

async function main(argv: string[]): Promise<number> {
  // the fast path: no commander, no commands loaded
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  // the hook runs on every turn of an agent: no commander, only the capture code
  const hook = hookArgs(argv);
  if (hook?.runtime === 'git' && hook.rest) {
    const { runGitHook } = await import('../commands/git-hook.js');
    return runGitHook(hook.rest, hook.flags, process.env);
  }
  if (hook) {
    const { runHook } = await import('../commands/hook.js');
    return runHook(hook.runtime, hook.flags, process.env, hook.input);
  }
  const { buildProgram } = await import('./program.js');
  const { CommanderError } = await import('commander');
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return report(e, argv.includes('--json'));
  }
}

/** `[--store P] [--engine E] hook RUNTIME [INPUT] [--store P] …` → the hook's arguments; null: not the hook, or --help. */
function hookArgs(argv: string[]): { runtime?: string; input?: string; rest?: string[]; flags: { store?: string; engine?: string } } | null {
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

/** A message quoting input (a branch name with a newline, an escape sequence) stays one line, inert on a terminal. */
function oneLine(message: string): string {
  return message.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

function report(e: unknown, json: boolean): number {
  if (e instanceof CtxError) {
    process.stderr.write(json ? `${JSON.stringify(e.toJSON())}\n` : `ctx: ${oneLine(e.message)}\n`);
    if (!json && e.hint && process.stderr.isTTY) process.stderr.write(`hint: ${e.hint}\n`);
    if (process.env.CTX_DEBUG === '1') process.stderr.write(`${e.stack}\n`);
    return e.exit;
  }
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'EPIPE') return EXIT.ok;
  process.stderr.write(`ctx: internal error: ${err?.message ?? String(e)}\n`);
  if (process.env.CTX_DEBUG === '1') process.stderr.write(`${err?.stack}\n`);
  else process.stderr.write('hint: CTX_DEBUG=1 shows where\n');
  return EXIT.error;
}

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(EXIT.ok);
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
