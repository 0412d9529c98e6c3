import { resolve } from 'node:path';
import { initRepo } from '../store/repo.js';
import type { Cli } from '../cli/context.js';

export async function run(cli: Cli, path: string | undefined) {
  const gitdir = resolve(cli.cwd, path ?? cli.flags.store ?? (cli.env.CTX_STORE || '.ctx'));
  const created = initRepo(gitdir);
  if (cli.flags.json) return cli.json({ v: 1, path: gitdir, created });
  if (!created) cli.note(`ctx: a context store is already there; nothing changed`);
  cli.out(`${gitdir}\n`);
}
