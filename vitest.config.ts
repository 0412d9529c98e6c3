import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // says why the corpus tests were skipped when ../shared/corpus is missing
    globalSetup: ['test/corpus-note.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // two cores: tests spawn git and node processes of their own
    maxWorkers: 2,
  },
});
