// Matching a path a tool named against a file's path: by a suffix of their components, either way,
// so a relative path and an absolute one name the same file.

/** Path components, `.` and empty ones dropped. */
export const components = (p: string): string[] => p.split(/[\\/]+/).filter((c) => c !== '' && c !== '.');

/** Whether one path's components end with the other's (a relative path and an absolute one name the same file). */
export function samePath(query: string[], path: string): boolean {
  const q = components(path);
  if (q.length === 0) return false;
  const [short, long] = q.length <= query.length ? [q, query] : [query, q];
  return short.every((c, i) => c === long[long.length - short.length + i]);
}
