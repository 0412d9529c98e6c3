// The commit walks moved to store/commit-graph.ts (notes-merge.ts uses them too, and store/ must not
// import store/sync/); this re-export keeps the api/ imports working until they point there.
export { hasObject, isAncestor, reachable } from '../commit-graph.js';
