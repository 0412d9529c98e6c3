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

  /** Human output: through a pager when it is longer than a terminal screen, as git does. */
  async page(text: string): Promise<void> {
    const rows = process.stdout.rows ?? 0;
    const pager = this.env.CTX_PAGER ?? this.env.PAGER ?? 'less';
    if (!this.tty || rows === 0 || pager === '' || pager === 'cat' || text.split('\n').length <= rows) return this.out(text);
    const { spawn } = await import('node:child_process');
    await new Promise<void>((done) => {
      const child = spawn(pager, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { LESS: 'FRX', ...this.env } });
      child.on('error', () => {
        this.out(text);
        done();
      });
      child.on('close', () => done());
      child.stdin.on('error', () => {}); // the reader quit early: nothing left to show
      child.stdin.end(text);
    });
  }

  /** One JSON document (or one JSON-lines record). */
  json(record: unknown): void {
    process.stdout.write(`${JSON.stringify(record)}\n`);
  }

  note(text: string): void {
    process.stderr.write(`${text}\n`);
  }
}
