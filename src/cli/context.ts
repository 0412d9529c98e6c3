// What a command gets from the CLI: global flags, the store, and where output goes.
import { RepoContext } from '../api/repo-context.js';
import { initRepo, locateStore, requireStore } from '../store/repo.js';
import { colorLevel, makeChalk } from '../output/style.js';
import type { ChalkInstance } from 'chalk';

export interface GlobalFlags {
  store?: string;
  json?: boolean;
  color?: string;
  engine?: string;
}

export class Cli {
  readonly chalk: ChalkInstance;
  /** human tables when stdout is a terminal, stable lines otherwise */
  readonly tty: boolean;
  constructor(
    readonly flags: GlobalFlags,
    readonly env: NodeJS.ProcessEnv = process.env,
    readonly cwd: string = process.cwd(),
  ) {
    this.tty = Boolean(process.stdout.isTTY);
    this.chalk = makeChalk(colorLevel(flags.color ?? 'auto', this.tty, env));
  }

  /** The context repo; `create` makes `./.ctx` (or the one named) on first write. */
  openRepo(create = false): RepoContext {
    const loc = locateStore(this.flags.store, this.env, this.cwd);
    if (!loc.exists && create && initRepo(loc.gitdir)) this.note(`created context store at ${loc.gitdir}`);
    const gitdir = create ? loc.gitdir : requireStore(loc);
    return new RepoContext(gitdir, { env: this.env, engine: this.flags.engine as never });
  }

  /** Run `body` with an open repo, closing its engine after. */
  async withRepo<T>(create: boolean, body: (repo: RepoContext) => Promise<T>): Promise<T> {
    const repo = this.openRepo(create);
    try {
      return await body(repo);
    } finally {
      await repo.close();
    }
  }

  out(text: string | Uint8Array): void {
    process.stdout.write(text);
  }

  /** One JSON document (or one JSON-lines record). */
  json(record: unknown): void {
    process.stdout.write(`${JSON.stringify(record)}\n`);
  }

  note(text: string): void {
    process.stderr.write(`${text}\n`);
  }
}
