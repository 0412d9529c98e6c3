// Prints test/durations.ts from a vitest JSON report (.ci/run writes one; `--reporter=json
// --outputFile.json=FILE` makes one): each file's seconds, which test/sequencer.ts starts longest first.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const root = process.argv[3] ?? process.cwd();
const rows = report.testResults
  .map((r) => [relative(root, r.name), Math.round((r.endTime - r.startTime) / 1000)])
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
console.log(`// Seconds each test file took in a CI run (written by \`node .ci/durations.mjs REPORT\`): test/sequencer.ts
// starts the longest first, so that the two workers end together. A file not listed starts before all.
export const DURATIONS: Record<string, number> = {
${rows.map(([f, s]) => `  '${f}': ${s},`).join('\n')}
};`);
