// The resources of `ctx mcp`: ctx://branch/NAME (a branch's tip and recent history) and
// ctx://commit/ID (a commit's metadata), as the commands' --json records. Names are percent-encoded
// in URIs: a branch name holds slashes.
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { branches, log, show } from '../api/read/read.js';
import { branchJson, commitJson, logJson } from '../output/records.js';
import type { ToolContext } from './tools/tool.js';

/** Commits of a branch's history a branch resource holds. */
const HISTORY = 20;

const uri = (kind: 'branch' | 'commit', name: string) => `ctx://${kind}/${encodeURIComponent(name).replace(/,/g, '%2C')}`;
const json = (u: URL, data: unknown) => ({ contents: [{ uri: u.href, mimeType: 'application/json', text: JSON.stringify(data, null, 2) }] });
const param = (v: string | string[]) => decodeURIComponent(Array.isArray(v) ? v.join(',') : v);

export function registerResources(server: McpServer, t: ToolContext): void {
  const list = (kind: 'branch' | 'commit') => async () => {
    const all = await t.withRepo((repo) => branches(repo));
    return { resources: all.map((b) => ({ uri: uri(kind, kind === 'branch' ? b.name : b.id), name: kind === 'branch' ? b.name : b.id, mimeType: 'application/json', ...(kind === 'commit' ? { description: `the tip of ${b.name}` } : {}) })) };
  };
  server.registerResource('branch', new ResourceTemplate('ctx://branch/{name}', { list: list('branch') }), { title: 'Branch', description: `a branch: its tip and its last ${HISTORY} commits`, mimeType: 'application/json' }, async (u, v) => {
    const name = param(v.name);
    return t.withRepo(async (repo) => {
      const commits = await log(repo, name, { limit: HISTORY });
      const info = (await branches(repo)).find((b) => b.name === name);
      return json(u, { ...(info ? branchJson(info) : { v: 1, name, id: commits[0]?.id ?? null }), commits: commits.map(logJson) });
    });
  });
  server.registerResource('commit', new ResourceTemplate('ctx://commit/{id}', { list: list('commit') }), { title: 'Commit', description: "a commit's metadata (ctx show)", mimeType: 'application/json' }, async (u, v) => json(u, commitJson(await t.withRepo((repo) => show(repo, param(v.id))))));
}
