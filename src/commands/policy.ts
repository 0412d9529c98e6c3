import { setPolicy, showPolicy } from '../api/state/state.js';
import { shortId } from '../core/ids.js';
import { UsageError } from '../errors/index.js';
import { policyJson, stateWriteJson } from '../output/records.js';
import { tsvLine } from '../output/style.js';
import type { StateWrite } from '../api/state/state.js';
import { defineCommand } from './command.js';
import { adminOf } from './state.js';
import { unknownName } from '../core/nearest.js';

type Done = { write: StateWrite } | { shown: { id: string; agents: Record<string, string[]> } };

export default defineCommand({
  name: 'policy',
  summary: "who may write which namespaces of a branch's state: set an agent's, or show the policy (versioned in the branch)",
  description:
    'set: AGENT may write NAMESPACES (comma-separated; * for every namespace and the policy), written as a state commit by an agent with *, named with --as (or $CTX_AGENT; required); --remove takes the agent out. ' +
    'show: the policy at any commit. metadata is written by agents with * only, except metadata.locale; an agent not in the policy writes nothing.',
  args: [
    { name: 'action', description: 'set or show', required: true, values: ['set', 'show'] },
    { name: 'branch', description: 'the branch (show: any commit)', required: true, values: 'branch' },
    { name: 'agent', description: 'set: the agent' },
    { name: 'namespaces', description: 'set: NS,NS,… or *' },
  ],
  options: [
    { flags: '--as <agent>', description: 'set: the agent changing the policy, one with * (required, or $CTX_AGENT)' },
    { flags: '--remove', description: 'set: take the agent out of the policy' },
    { flags: '--retry', description: 'set: when another agent wrote first, read the new policy and set again on top of it' },
  ],
  examples: ['ctx policy set design-room intent_detection reasoning,diagnostics,audit --as orchestrator', 'ctx policy set design-room reviewer --remove --as orchestrator', 'ctx policy show design-room --json'],
  async run(io, [action, branch, agent, namespaces]: [string, string, string | undefined, string | undefined], flags: { as?: string; remove?: boolean; retry?: boolean }): Promise<Done> {
    if (action === 'show') {
      if (agent !== undefined) throw new UsageError('policy show takes a branch only');
      return { shown: await io.withRepo(false, (repo) => showPolicy(repo, branch)) };
    }
    if (action !== 'set') throw new UsageError(unknownName('action', action, ['set', 'show'], `unknown action '${action}': set or show`, { closed: true }));
    if (agent === undefined || (flags.remove ? namespaces !== undefined : namespaces === undefined)) throw new UsageError(flags.remove ? 'policy set --remove takes BRANCH AGENT' : 'policy set takes BRANCH AGENT NAMESPACES (e.g. reasoning,diagnostics,audit or *)');
    const list = flags.remove ? null : namespaces!.split(',').map((n) => n.trim()).filter((n) => n !== '');
    if (list && list.length === 0) throw new UsageError('policy set: no namespaces given (use --remove to take the agent out)');
    const by = adminOf(io, flags.as, 'changes the policy');
    return { write: await io.withRepo(false, (repo) => setPolicy(repo, branch, agent, list, by, { retry: flags.retry })) };
  },
  print(io, done) {
    if ('shown' in done) {
      if (io.flags.json) return io.json(policyJson(done.shown));
      return io.out(Object.keys(done.shown.agents).sort().map((a) => tsvLine([a, done.shown.agents[a].join(',')])).join(''));
    }
    if (io.flags.json) return io.json(stateWriteJson(done.write));
    if (done.write.commit) io.out(`${shortId(done.write.commit.oid)}\n`);
    else io.note('ctx: unchanged: the policy already says so');
  },
});
