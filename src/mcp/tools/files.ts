// `files`: which sessions and commits touched a path (ctx files). The path is a query matched against
// the paths tool calls named; nothing is opened on disk, and `..` is refused as no file's name.
import { z } from 'zod';
import { filesTouched } from '../../api/search/touched.js';
import { components } from '../../core/path-match.js';
import { UsageError } from '../../errors/index.js';
import { fileTouchJson } from '../../output/records.js';
import { defineTool } from './tool.js';
import { branchList, limited , limit } from './shared.js';

export const files = defineTool({
  name: 'files',
  title: 'File history',
  description:
    'The tool calls (read, edit, write, run) that touched a file, newest first: which session, branch and commit. A path matches by a suffix of its components (src/auth.ts finds /home/me/app/src/auth.ts).',
  input: {
    path: z.string().min(1).max(4096).describe('the file, relative or absolute, as a tool call named it'),
    branches: branchList,
    limit: limit(),
  },
  async run(t, { path, branches, limit: most }) {
    if (components(path).includes('..')) throw new UsageError(`files: a path without '..' components, not '${path}'`);
    const all = await t.withRepo((repo) => filesTouched(repo, path, { branches }));
    const { items, truncated } = limited(all, most);
    const touches = items.map(fileTouchJson);
    const lines = touches.map((x) => `${x.at} ${x.action} ${x.tool} ${x.commit} ${x.branch} ${x.session} ${x.path}`);
    return { data: { touches, total: all.length, truncated }, text: lines.length ? lines.join('\n') + (truncated ? `\n… ${all.length - items.length} more` : '') : 'no tool call touched that path' };
  },
});
