import { resolve } from 'node:path';
import { agentTrace } from '../api/links/trace.js';
import { VERSION } from '../core/version.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'trace',
  summary: 'an Agent Trace record (application/vnd.agent-trace.record+json) for a code commit: its files, the conversations that wrote which lines, ai, human or mixed',
  description:
    "Prints one Agent Trace v0.1.0 record (cursor/agent-trace; MIME type application/vnd.agent-trace.record+json) for the code commit REV of the repository around the working directory (or --repo), as one line of JSON: vcs git and the commit's sha, the tool ctx and its version, the commit's committer time, and for each file the commit added lines to, the conversations that wrote them: a context (url ctx:ctx-<40 hex>, its session as a related resource, contributor ai with the model its Assisted-by trailer names) with the line ranges it wrote, each with a content hash (sha256 of its lines), and a person's lines as a conversation with contributor human. A person's lines between two runs of one context's lines make one range with contributor mixed. Lines are given to contexts as ctx blame gives them; metadata.agent-ctx lists the contexts linked to the commit and how each is known (recorded, verified, matched, claimed). The id is a version-5 UUID of the commit's sha, so a commit's record keeps its id. The schema asks version to be MAJOR.MINOR: records say 0.1. Exits 4 when REV is no commit of the code repository.",
  args: [{ name: 'rev', description: 'a code commit (default HEAD)' }],
  options: [{ flags: '--repo <dir>', description: 'the code repository (default: the current directory)', values: 'file' }],
  examples: ['ctx trace', 'ctx trace HEAD~2', 'ctx trace main --repo ../app > trace.json'],
  async run(io, [rev]: [string | undefined], o: { repo?: string }) {
    const cwd = o.repo === undefined ? io.cwd : resolve(io.cwd, o.repo);
    return io.withRepo(false, (repo) => agentTrace(repo, { cwd, rev: rev ?? 'HEAD', tool: { name: 'ctx', version: VERSION } }));
  },
  print(io, record) {
    io.out(`${JSON.stringify(record)}\n`);
  },
});
