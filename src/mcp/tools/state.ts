// `state_get` and `state_set`: a branch's structured state (seed 004), written under its policy as
// the server's agent: the identity comes from the server's configuration, never from the arguments.
import { z } from 'zod';
import { getState, setState } from '../../api/state/state.js';
import type { Json } from '../../core/state/values.js';
import { stateValueJson, stateWriteJson } from '../../output/records.js';
import { defineTool } from './tool.js';
import { UsageError } from '../../errors/index.js';
import { SPEC } from './shared.js';
import { serverAgent } from './news.js';

const KEY = z.string().min(1).max(255);

export const stateGet = defineTool({
  name: 'state_get',
  title: 'Read state',
  description: 'The structured state at a commit or branch tip (ctx state get): the whole state, a namespace, or NAMESPACE.KEY; externalized values resolved.',
  input: { id: SPEC.describe('a branch or commit'), key: KEY.optional().describe('NAMESPACE or NAMESPACE.KEY (default: the whole state)') },
  async run(t, a) {
    const v = stateValueJson(await t.withRepo((repo) => getState(repo, a.id, a.key)));
    return { data: v, text: JSON.stringify(v.value, null, 2) };
  },
});

export const stateSet = defineTool({
  name: 'state_set',
  title: 'Write state',
  write: true,
  description:
    "Sets NAMESPACE.KEY of a branch's state to a JSON value (or deletes it), as a new commit, under the branch's policy: the agent writing is this server's (--agent / CTX_AGENT), and the write is refused when the policy does not let it write that namespace.",
  input: {
    branch: z.string().min(1).max(255).describe('the branch'),
    key: KEY.describe('NAMESPACE.KEY'),
    value: z.unknown().optional().describe('the JSON value (absent with delete)'),
    delete: z.boolean().default(false).describe('remove the key instead'),
    retry: z.boolean().default(false).describe('when another agent wrote first, read the new state and set again on top of it'),
  },
  async run(t, a) {
    const agent = serverAgent(t, 'state_set');
    if (a.delete ? a.value !== undefined : a.value === undefined) throw new UsageError(a.delete ? 'state_set with delete takes no value' : 'state_set takes a value (or delete: true)');
    const w = stateWriteJson(await t.withRepo((repo) => setState(repo, a.branch, a.key, a.delete ? undefined : (a.value as Json), agent, { retry: a.retry })));
    return { data: w, text: w.id === null ? 'unchanged: the value is already there' : w.id };
  },
});
