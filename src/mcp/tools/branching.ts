// `fork`, `save` and `restore`: a new branch at any commit, a branch's context named to come back to
// (an annotated tag), and a saved context back on a branch. Write tools: listed only with --write.
import { z } from 'zod';
import { fork as forkAt } from '../../api/write/branch-ops.js';
import { restore as restoreSaved, save as saveBranch } from '../../api/sync/saves.js';
import { forkJson, restoredJson, sessionJson } from '../../output/records.js';
import { defineTool } from './tool.js';
import { SPEC } from './shared.js';

const NAME = z.string().min(1).max(255);

export const fork = defineTool({
  name: 'fork',
  title: 'Fork',
  write: true,
  description: 'A new branch at any commit (ctx fork): the context up to it, to continue another way. Default name: <branch>.fork-<n>.',
  input: { id: SPEC.describe('the commit or branch to fork at'), name: NAME.optional().describe('the new branch (default: a fork name of the branch)') },
  async run(t, a) {
    const r = await t.withRepo((repo) => forkAt(repo, a.id, a.name));
    const j = forkJson(r.branch, r.oid);
    return { data: j, text: `${j.branch} ${j.id}` };
  },
});

export const save = defineTool({
  name: 'save',
  title: 'Save',
  write: true,
  description: "Names a branch's context to come back to (ctx save): an annotated tag with a description, the summary, the message count and the window.",
  input: { branch: NAME.describe('the branch'), description: z.string().max(4096).describe('what the context is, to find it again'), name: NAME.optional().describe('the save name (default: save/<branch>/<time>)') },
  async run(t, a) {
    const s = sessionJson(await t.withRepo((repo) => saveBranch(repo, a.branch, { description: a.description, name: a.name })));
    return { data: s, text: `${s.name} ${s.id}` };
  },
});

export const restore = defineTool({
  name: 'restore',
  title: 'Restore',
  write: true,
  description: "A saved context back as a branch's working context (ctx restore): a commit on top of its tip, nothing lost (default: the branch it was saved from).",
  input: { name: NAME.describe('the save name'), branch: NAME.optional().describe('the branch to restore onto (default: the one saved from)') },
  async run(t, a) {
    const r = restoredJson(await t.withRepo((repo) => restoreSaved(repo, a.name, { branch: a.branch })));
    return { data: r, text: `${r.branch} ${r.id}` };
  },
});
