// Two versions of a few lines (an edit's old and new text) as a diff, for the web view: no DOM, so a
// test runs it as it is.

/** Cells of the table a line diff may fill; past it, every old line goes out and every new one in. */
const DIFF_CELLS = 4e6;

/** Old lines against new ones by their longest common subsequence, in order: kept lines `same`, the others `del` then `add`. */
export function lineDiff(old: readonly string[], now: readonly string[]): ['same' | 'del' | 'add', string][] {
  const n = old.length;
  const m = now.length;
  if (n * m > DIFF_CELLS) return [...old.map((t) => ['del', t] as ['del', string]), ...now.map((t) => ['add', t] as ['add', string])];
  // lcs[i][j]: the longest common subsequence of old[i..] and now[j..]
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = old[i] === now[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: ['same' | 'del' | 'add', string][] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && old[i] === now[j]) out.push(['same', old[i++]]), j++;
    else if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) out.push(['del', old[i++]]);
    else out.push(['add', now[j++]]);
  }
  return out;
}
