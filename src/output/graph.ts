// `ctx log --graph`: lanes like `git log --graph`. Context commits have one parent at most,
// so branches only ever join where a fork was made: a child lane folds into its parent's.
// The nodes come in topological order (children before their parent, as api/read/read.ts's log gives them).
export interface GraphNode {
  id: string;
  parent: string | null;
}

export function renderGraph<T extends GraphNode>(nodes: readonly T[], label: (n: T) => string): string {
  const lanes: (string | null)[] = [];
  const trim = () => {
    while (lanes.length && lanes[lanes.length - 1] === null) lanes.pop();
  };
  let out = '';
  for (const n of nodes) {
    let col = lanes.indexOf(n.id);
    if (col === -1) {
      col = lanes.indexOf(null);
      if (col === -1) col = lanes.push(null) - 1;
    }
    // other lanes waiting for this commit are forks from it: they join its lane above it, rightmost first
    for (let j = lanes.length - 1; j > col; j--) {
      if (lanes[j] !== n.id) continue;
      out += `${foldLine(lanes, col, j)}\n`;
      lanes[j] = null;
      trim();
    }
    out += `${lanes.map((l, i) => (i === col ? '*' : l === null ? ' ' : '|')).join(' ').trimEnd()} ${label(n)}\n`;
    lanes[col] = n.parent;
    trim();
  }
  return out;
}

/** Lane `j` joining lane `col`: `|/`, with `_` across empty lanes between them. */
function foldLine(lanes: readonly (string | null)[], col: number, j: number): string {
  const chars = lanes.slice(0, j).flatMap((l) => [l === null ? ' ' : '|', ' ']);
  chars[2 * j - 1] = '/';
  for (let i = j - 1; i > col && lanes[i] === null; i--) chars[2 * i] = chars[2 * i - 1] = '_';
  return chars.join('');
}
