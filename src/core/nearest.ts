// The known name nearest a mistyped one, for "did you mean …?": edits counted as optimal string
// alignment does (a swapped pair of letters is one edit), near only when they are few for its length.

/**
 * The nearest of `known` to `name`; undefined when none is near. `closed` (a command's few actions):
 * else the only one that starts with the same letter (`show` → `status`).
 */
export function nearest(name: string, known: Iterable<string>, opts: { closed?: boolean } = {}): string | undefined {
  const most = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    if (k === name || Math.abs(k.length - name.length) > Math.min(most, bestDistance)) continue;
    const d = distance(name, k);
    if (d < bestDistance && d <= most) [best, bestDistance] = [k, d];
  }
  if (best === undefined && opts.closed) {
    const same = [...known].filter((k) => name !== '' && k[0] === name[0]);
    if (same.length === 1) return same[0];
  }
  return best;
}

/** `unknown <what> <name>: did you mean <nearest>?`, or `fallback` when none is near. */
export function unknownName(what: string, name: string, known: Iterable<string>, fallback: string, opts: { closed?: boolean } = {}): string {
  const near = nearest(name, known, opts);
  return near === undefined ? fallback : `unknown ${what} ${name}: did you mean ${near}?`;
}

function distance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}
