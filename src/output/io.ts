// What a command gets from whoever runs it (cli/context.ts implements it): global flags, the store,
// and where output goes. Declared here, below commands/ and cli/, so neither imports the other.
import type { ChalkInstance } from 'chalk';
import type { RepoContext } from '../api/repo/repo-context.js';
import type { Progress, ProgressUnit } from './progress.js';

export interface GlobalFlags {
  store?: string;
  json?: boolean;
  color?: string;
  engine?: string;
}

export interface CommandIO {
  readonly flags: GlobalFlags;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly chalk: ChalkInstance;
  /** human tables when stdout is a terminal, stable lines otherwise */
  readonly tty: boolean;
  /** stderr is a terminal and $CI is unset: progress (ours, or git's own) is shown */
  readonly showProgress: boolean;
  /** Run `body` with the open context repo, closing it after; `create` makes one on first write. */
  withRepo<T>(create: boolean, body: (repo: RepoContext) => Promise<T>): Promise<T>;
  /** data on stdout */
  out(text: string | Uint8Array): void;
  /** human output: through a pager when longer than the screen */
  page(text: string): Promise<void>;
  /** one JSON document, or one JSON-lines record */
  json(record: unknown): void;
  /** JSON-lines records, one write for all of them (thousands of lines written one by one cost a system call each) */
  jsonLines(records: readonly unknown[]): void;
  /** a line for people on stderr */
  note(text: string): void;
  /** a progress line on stderr (silent on a pipe or under CI) */
  progress(label: string, unit: ProgressUnit): Progress;
}
