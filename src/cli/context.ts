// The CLI's side of CommandIO: global flags, the store, stdout/stderr, the pager, progress.
import type { ChalkInstance } from 'chalk';
import { openRepo } from '../api/repo/open.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import type { CommandIO, GlobalFlags } from '../output/io.js';
import { progress, progressWanted, type Progress, type ProgressUnit } from '../output/progress.js';
import { colorLevel, makeChalk, visibleLines } from '../output/style.js';

export type { GlobalFlags };

export class Cli implements CommandIO {
  readonly chalk: ChalkInstance;
  readonly tty: boolean;
  readonly showProgress: boolean;
  constructor(
    readonly flags: GlobalFlags,
    readonly env: NodeJS.ProcessEnv = process.env,
    readonly cwd: string = process.cwd(),
  ) {
    this.tty = Boolean(process.stdout.isTTY);
    this.showProgress = progressWanted(process.stderr, env);
    this.chalk = makeChalk(colorLevel(flags.color ?? 'auto', this.tty, env));
  }

  /** The context repo; `create` makes `./.ctx` (or the one named) on first write. */
  openRepo(create = false): RepoContext {
    const { repo, created } = openRepo({ store: this.flags.store, engine: this.flags.engine as never, env: this.env, cwd: this.cwd, create });
    if (created) this.note(`created context store at ${repo.gitdir}`);
    repo.onWarning = (text) => this.note(`ctx: warning: ${text}`);
    return repo;
  }

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

  /** Through a pager when longer than a terminal screen, as git does. */
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

  json(record: unknown): void {
    process.stdout.write(`${JSON.stringify(record)}\n`);
  }

  jsonLines(records: readonly unknown[]): void {
    if (records.length) process.stdout.write(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  }

  note(text: string): void {
    process.stderr.write(`${visibleLines(text)}\n`);
  }

  progress(label: string, unit: ProgressUnit): Progress {
    return progress(label, unit, process.stderr, this.env);
  }
}
