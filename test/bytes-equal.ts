// vitest setupFile: toEqual on two byte arrays compares their bytes at once. Its default walks them
// element by element (about 6 s of CPU per megabyte), and the suites compare whole transcripts so.
import { expect } from 'vitest';

/** Equal when both are byte arrays of one kind holding the same bytes; anything else is left to toEqual's default. */
function sameBytes(a: unknown, b: unknown): boolean | undefined {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.constructor !== b.constructor) return undefined;
  return Buffer.compare(a, b) === 0;
}

expect.addEqualityTesters([sameBytes]);
