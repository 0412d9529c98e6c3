// The web view's usage page (/api/usage): the records `ctx usage --json` prints, from the same report.
import { usage, USAGE_GROUPS, type UsageGroup } from '../api/read/usage.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import { parseSince } from '../core/window.js';
import { UsageError } from '../errors/index.js';
import { usageJson } from '../output/records.js';

/** `by`: session (default), day, model or project; `since`: as `ctx usage --since` takes it. */
export async function usageRecords(repo: RepoContext, by: string | null, since: string | null) {
  if (by !== null && !(USAGE_GROUPS as readonly string[]).includes(by)) throw new UsageError(`by takes ${USAGE_GROUPS.join(', ')}, not '${by}'`);
  const window = since === null || since === '' ? null : parseSince(since, repo.now(), 'since');
  const report = await usage(repo, { by: (by ?? 'session') as UsageGroup, since: window?.start });
  return [...report.rows.map((r) => usageJson(r, report.by)), usageJson(report.total, 'total')];
}
