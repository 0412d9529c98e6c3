import { clone, type CloneResult } from '../api/sync/clone.js';
import { UsageError } from '../errors/index.js';
import { cloneJson } from '../output/records.js';
import { printSyncReport, syncFailure, syncProgress } from '../output/ref-status.js';
import { visible } from '../output/style.js';
import { defineCommand } from './command.js';

export default defineCommand({
  name: 'clone',
  summary: 'a new store from a remote: every branch, tag and annotation, origin configured',
  description:
    "Creates DIR (default: --store, $CTX_STORE, else ./.ctx, as `ctx init`: ctx commands run here find it), adds URL as the remote origin (as `ctx remote add`), fetches it and makes one local branch per remote branch (as `git clone --bare`; REMOTE/NAME stay as remote-tracking branches, `ctx branch -r`). A DIR that exists and is not empty is refused (exit 3). --filter=blob:none makes git's partial clone (the server must allow filters): refs, commits, trees, every meta.json and the annotations come now, so log, show, branch and sessions work offline; artifacts come when something reads them, a read's all in one fetch (docs/sync.md). Prints one line unless -v.",
  args: [
    { name: 'url', description: 'https://…, ssh://…, host:path or a local path' },
    { name: 'dir', description: 'where (default: --store, $CTX_STORE, else ./.ctx)', values: 'file' },
  ],
  options: [
    { flags: '--filter <spec>', description: "git's partial clone filter: blob:none or blob:limit=N (needs the git binary)" },
    { flags: '-v, --verbose', description: 'one line per ref fetched and branch made, as pull -v prints' },
  ],
  examples: ['ctx clone https://git.example.com/team/agent-context.git', 'ctx clone https://git.example.com/team/agent-context.git team.ctx', 'ctx clone --filter=blob:none URL && ctx log --all'],
  async run(io, [url, dir]: [string | undefined, string | undefined], flags: { filter?: string; verbose?: boolean }): Promise<CloneResult> {
    if (!url) throw new UsageError('clone needs a URL');
    const p = syncProgress(io, 'clone');
    const target = dir ?? io.flags.store ?? (io.env.CTX_STORE || '.ctx');
    return clone(url, target, { env: io.env, cwd: io.cwd, engine: io.flags.engine as never, filter: flags.filter, ...p }).finally(p.done);
  },
  print(io, r, flags) {
    const branches = r.report.refs.filter((x) => x.local.startsWith('refs/heads/') && x.ok).length;
    const tags = r.report.refs.filter((x) => x.local.startsWith('refs/tags/') && x.ok).length;
    if (io.flags.json) return io.json(cloneJson(r.gitdir, r.report.url, r.filter, branches, tags));
    if (flags.verbose) printSyncReport(io, r.report, 'From');
    const what = [`${branches} ${branches === 1 ? 'branch' : 'branches'}`, `${tags} ${tags === 1 ? 'tag' : 'tags'}`, ...(r.report.refs.some((x) => x.ref === 'refs/notes/ctx') ? ['annotations'] : [])];
    io.out(`Cloned ${visible(r.report.url)} into ${visible(r.gitdir)}${r.filter ? ` (--filter=${r.filter})` : ''}: ${what.join(', ')}\n`);
  },
  failure: (r) => syncFailure('clone', r.report),
});
