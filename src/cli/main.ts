// The whole CLI (commander and the command table), loaded by entry.ts for every command but `--version`
// and `hook`: parse, run, map errors to one line and an exit code.
import { EXIT } from '../errors/index.js';
import { report } from './report.js';

async function main(argv: string[]): Promise<number> {
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

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(EXIT.ok);
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
