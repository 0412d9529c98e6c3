// vitest's file order: the longest first, so that the two workers end together. vitest orders by the
// durations in its cache, but a fresh clone (CI) has none, and then it orders by file size, which
// started test/resume-matrix.test.ts (small, the longest) among the last; test/durations.ts gives them.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { DURATIONS } from './durations.js';

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // a file not listed (new) runs first, as vitest runs a file it has no numbers for
    const seconds = (f: TestSpecification) => DURATIONS[relative(this.ctx.config.root, f.moduleId).split('\\').join('/')] ?? Infinity;
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}
