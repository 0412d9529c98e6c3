// vitest globalSetup: one line after the run when the corpus suites were skipped, so the reason is seen.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const CORPUS = resolve(import.meta.dirname, '..', '..', 'shared', 'corpus');

export function teardown(): void {
  if (!existsSync(CORPUS) && !process.env.CI) console.warn(`note: the corpus tests were skipped: ${CORPUS} (../shared/corpus beside the clone) not found; with CI set they fail instead`);
}
