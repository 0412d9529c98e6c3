import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

// Every node the tests start (ctx, the agent CLIs, the workers) would parse this CA bundle first:
// ~70 ms of CPU each where the machine names one. Nothing in the tests speaks TLS (every server is
// http on 127.0.0.1), so the workers and all they spawn go without it.
delete process.env.NODE_EXTRA_CA_CERTS;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // says why the corpus tests were skipped when ../shared/corpus is missing
    globalSetup: ['test/corpus-note.ts'],
    // toEqual on byte arrays compares bytes, not element by element (test/bytes-equal.ts)
    setupFiles: ['test/bytes-equal.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // two cores: tests spawn git and node processes of their own
    maxWorkers: 2,
    // the longest files first (test/durations.ts): with vitest's cache empty, as in CI, it would go by file size
    sequence: { sequencer: LongestFirst },
  },
});
