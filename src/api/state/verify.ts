// `ctx verify` for structured state: every commit whose `state/` differs from its parent's must
// carry a state record, written by an agent the policy in force at its parent allowed, matching
// what changed, with values its schema accepts. A commit forged with plain git is caught here.
import { fullId } from '../../core/ids.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { grantOf, isAdmin, mayWrite } from '../../core/state/policy.js';
import { POLICY_KEY, SCHEMA_FILE, STATE_DIR, STATE_ENTRY } from '../../core/state/record.js';
import { keyViolation, stateViolation } from '../../core/state/schema.js';
import type { StoredCommit } from '../../store/context-commits.js';
import { subtreeIn, subtreeOf } from '../../store/subtree.js';
import { parseTree } from '../../store/objects.js';
import type { RepoContext } from '../repo/repo-context.js';
import { diffLoaded } from './state.js';
import { namespaceOf, resolveValue, stateFromTree, type LoadedState } from './store.js';

export interface StateProblem {
  id: string;
  problem: string;
}

/** Each commit's `state/` tree id: the batch's trees in one pass (a parent is usually in the batch). */
async function stateTrees(ctx: RepoContext, commits: readonly StoredCommit[]): Promise<Map<string, string | null>> {
  const trees = await ctx.engine.readObjects(commits.map((s) => s.commit.tree));
  const out = new Map<string, string | null>();
  commits.forEach((s, i) => {
    const t = trees[i];
    out.set(s.oid, t?.type === 'tree' ? subtreeIn(t.data, STATE_DIR) : null);
  });
  for (const s of commits) {
    const p = s.commit.parents[0];
    if (p !== undefined && !out.has(p)) out.set(p, await subtreeOf(ctx.gitdir, ctx.engine, p, STATE_DIR));
  }
  return out;
}

/** Entries of `state/` ctx never writes (a script, a subtree, a file that is no namespace) or with another mode, new in `tree` since `parent`. */
async function strangeEntries(ctx: RepoContext, tree: string, parent: string | null): Promise<string[]> {
  const [mine, theirs] = await ctx.engine.readObjects(parent === null ? [tree] : [tree, parent]);
  if (mine?.type !== 'tree') return [];
  const before = new Set(theirs?.type === 'tree' ? parseTree(theirs.data).map((e) => `${e.mode} ${e.oid} ${e.name}`) : []);
  const out: string[] = [];
  for (const e of parseTree(mine.data)) {
    if (before.has(`${e.mode} ${e.oid} ${e.name}`)) continue;
    if (!STATE_ENTRY.test(e.name)) out.push(`state/${e.name} is not an entry ctx writes (<namespace>.json, .policy.json, .schema.json, .blob-<blake3>)`);
    else if (e.mode !== '100644') out.push(`state/${e.name} has mode ${e.mode}, not 100644`);
  }
  return out;
}

export async function verifyStateWrites(ctx: RepoContext, commits: readonly StoredCommit[]): Promise<StateProblem[]> {
  const out: StateProblem[] = [];
  const states = await stateTrees(ctx, commits);
  // a commit's state is read once, from the tree id found above: as the `after` of its own write and the `before` of its child's
  const loaded = new Map<string, Promise<LoadedState | null>>();
  const load = (oid: string) => {
    let p = loaded.get(oid);
    if (!p) loaded.set(oid, (p = stateFromTree(ctx, oid, states.get(oid) ?? null, false)));
    return p;
  };
  for (const s of commits) {
    const bad = (problem: string) => out.push({ id: fullId(s.oid), problem });
    const parent = s.commit.parents[0] ?? null;
    const mine = states.get(s.oid)!;
    const theirs = parent === null ? null : states.get(parent)!;
    const record = s.meta.state;
    if (mine === theirs) {
      if (record && Object.keys(record.diff).length) bad('has a state record but its state/ is its parent\'s');
      continue;
    }
    if (mine !== null) (await strangeEntries(ctx, mine, theirs).catch(() => [])).forEach(bad);
    if (!record) {
      bad(`changes state/ without a state record in meta.json`);
      continue;
    }
    try {
      const before = parent === null || theirs === null ? null : await load(parent);
      const after = mine === null ? null : await load(s.oid);
      const agent = record.agent;
      if (!after) {
        bad(`drops the state of its parent`);
        continue;
      }
      const actual = diffLoaded(before, after);
      // an init records its namespaces; the policy it starts is not a change of one
      const changed = before ? actual : diffLoaded(null, { ...after, policy: {} });
      if (canonicalJson(changed) !== canonicalJson(record.diff)) bad('its state record does not match what changed in state/');
      if (!before) {
        if (record.op !== 'init' || !isAdmin(after.policy, agent)) bad(`starts state/ by ${agent}, which its own policy does not give *`);
        continue;
      }
      const schemaChanged = before.entries.get(SCHEMA_FILE) !== after.entries.get(SCHEMA_FILE);
      if ((actual[POLICY_KEY] || schemaChanged) && !isAdmin(before.policy, agent))
        bad(`${actual[POLICY_KEY] ? 'changes the policy' : 'changes the schema'} as ${agent}, which the policy at its parent does not give *`);
      if (schemaChanged) {
        const whole = Object.fromEntries(await Promise.all([...after.texts.keys()].map(async (ns) => [ns, await resolveValue(ctx, after, namespaceOf(after, ns))])));
        const v = await stateViolation(after.schema, whole);
        if (v) bad(`schema ${after.schema.$id}: ${v}`);
      }
      for (const [ns, d] of Object.entries(actual)) {
        if (ns === POLICY_KEY) continue;
        for (const key of [...d.added, ...d.removed, ...d.changed])
          if (!mayWrite(before.policy, agent, ns, key))
            bad(`writes ${ns}.${key} as ${agent}, ${grantOf(before.policy, agent) ? 'which the policy at its parent does not allow' : 'an agent not in the policy at its parent'}`);
        if (schemaChanged) continue;
        const n = namespaceOf(after, ns);
        for (const key of [...d.added, ...d.changed]) {
          const v = await keyViolation(after.schema, ns, key, await resolveValue(ctx, after, n[key]));
          if (v) bad(`schema ${after.schema.$id}: ${v}`);
        }
      }
    } catch (e) {
      bad(`state/ is not readable: ${(e as Error).message.replace(/^ctx-[0-9a-f]+: /, '')}`);
    }
  }
  return out;
}
