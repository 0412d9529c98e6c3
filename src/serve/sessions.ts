// /api/sessions: the start page's list, one record per branch (api/read/sessions-list.ts).
import { sessionsList } from '../api/read/sessions-list.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import { sessionSummaryJson } from '../output/records.js';

export async function sessionRecords(repo: RepoContext) {
  return (await sessionsList(repo)).map(sessionSummaryJson);
}
