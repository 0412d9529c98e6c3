// `ctx log --graph`: lanes like `git log --graph`. Context commits have one parent at most,
// so branches only ever join where a fork was made: a child lane folds into its parent's.
export interface GraphNode {
  id: string;
  parent: string | null;
}

export function renderGraph<T extends GraphNode>(nodes: readonly T[], label: (n: T) => string): string {
  const lanes: (string | null)[] = [];
  let out = '';
  for (const n of nodes) {
    let col = lanes.indexOf(n.id);
    if (col === -1) {
      col = lanes.indexOf(null);
      if (col === -1) col = lanes.push(null) - 1;
    }
    out += `${lanes.map((l, i) => (i === col ? '*' : l === null ? ' ' : '|')).join(' ').trimEnd()} ${label(n)}\n`;
    // other lanes waiting for this commit are forks from it: fold them in, rightmost first
    for (let j = lanes.length - 1; j > col; j--) {
      if (lanes[j] !== n.id) continue;
      out += `${lanes.slice(0, j).map((l) => (l === null ? ' ' : '|')).join(' ')}${j > 0 ? '/' : ''}\n`.replace(/ \/\n$/, '/\n');
      lanes[j] = null;
    }
    lanes[col] = n.parent;
    while (lanes.length && lanes[lanes.length - 1] === null) lanes.pop();
  }
  return out;
}
