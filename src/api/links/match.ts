// `matched` links for contextsOfCode (resolve-code.ts): when nothing recorded or verified a code
// commit, the contexts whose tool calls wrote its added lines into files of those names, found in the
// content index. Each context commit that wrote any, most lines first.
import { samePath } from '../search/touched.js';
import type { RepoContext } from '../repo/repo-context.js';
import { contentIndex } from './content-index.js';
import type { CodeContext, CodeContexts, Matcher } from './resolve-code.js';

export const contentMatcher: Matcher = async (ctx: RepoContext, code: CodeContexts): Promise<CodeContext[]> => {
  const index = await contentIndex(ctx);
  const found = new Map<string, { files: Set<string>; lines: number }>();
  for (const f of code.added) {
    const query = f.path.split('/');
    for (const [, text] of f.lines) {
      const writers = new Set(index.lookup(text).filter((h) => samePath(query, h.path)).map((h) => h.context));
      for (const c of writers) {
        const m = found.get(c) ?? found.set(c, { files: new Set(), lines: 0 }).get(c)!;
        m.files.add(f.path);
        m.lines++;
      }
    }
  }
  return [...found]
    .sort(([a, x], [b, y]) => y.lines - x.lines || (a < b ? -1 : 1))
    .map(([context, m]) => ({ context, known: 'matched', inStore: true, via: code.commit.sha, files: [...m.files].sort(), lines: m.lines }));
};
