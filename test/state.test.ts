// Structured state (issue 13): permissions, forged commits, diff and audit over a history, limits at
// their boundaries, migrations. The library (src) for long histories, the built CLI for exit codes and bytes.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINES, FIXED_ENV, FIXTURES, ctx, ctxAsync, fsck, git, newStore, tempDir } from './helpers.js';
import { DEFAULT_POLICY, openStore, registerStateSchema, type ContextStore } from '../src/index.js';
import { artifactHash } from '../src/core/blake3.js';
import { writeChain } from '../src/api/write/write.js';

const env = FIXED_ENV;
const NAMESPACES = ['audit', 'diagnostics', 'enrichment', 'llm', 'metadata', 'reasoning', 'retrieval'];
const open = (store: string, engine?: 'git' | 'isogit') => openStore(store, { env, now: () => new Date(env.CTX_NOW), ...(engine ? { engine } : {}) });
const config = (store: string, key: string, value: number) => execFileSync('git', ['config', '-f', join(store, 'config'), key, String(value)]);

/** A valid value for one key of each reasoning-v1 namespace, different per agent. */
const SAMPLE: Record<string, (agent: string) => [string, unknown]> = {
  metadata: (a) => ['trace_id', `trace-${a}`],
  reasoning: (a) => ['summary', `summary by ${a}`],
  enrichment: (a) => ['context_links', [`https://example.com/${a}`]],
  retrieval: (a) => ['plans', [{ id: a, priority: 1 }]],
  llm: (a) => ['provider', a],
  diagnostics: (a) => ['warnings', [{ message: `from ${a}` }]],
  audit: (a) => ['agent_runs', [{ agent_id: a, status: 'success', keys_written: [] }]],
};

async function withStore<T>(store: string, body: (s: ContextStore) => Promise<T>, engine?: 'git' | 'isogit'): Promise<T> {
  const s = await open(store, engine);
  try {
    return await body(s);
  } finally {
    await s.close();
  }
}

describe('permissions', () => {
  it('every agent of the default table writes its namespaces and is refused elsewhere (exit 7); orchestrator writes all', async () => {
    const store = newStore();
    await withStore(store, async (s) => {
      const room = s.state('room');
      await room.init();
      let allowed = 0;
      for (const agent of [...Object.keys(DEFAULT_POLICY), 'stranger']) {
        const grant = DEFAULT_POLICY[agent];
        for (const ns of NAMESPACES) {
          const [key, value] = SAMPLE[ns](agent);
          const may = grant !== undefined && (grant.includes('*') || (ns !== 'metadata' && grant.includes(ns)));
          const write = room.set(ns as 'llm', key as 'provider', value as string, { as: agent });
          if (may) {
            expect((await write).id).toMatch(/^ctx-[0-9a-f]{40}$/);
            expect(await room.get(ns as 'llm', key as 'provider')).toEqual(value);
            allowed++;
          } else {
            const may = grant ? `${grant.join(', ')}, metadata.locale` : 'nothing (not in the policy)';
            await expect(write).rejects.toMatchObject({
              code: 'StateRefusedError',
              exit: 7,
              message: `${agent} may not write ${ns}.${key} on room: namespace ${ns} is not in its policy (it may write ${may})`,
            });
          }
        }
        // metadata.locale: any agent of the policy
        const locale = room.set('metadata', 'locale', `xx-${agent}`, { as: agent });
        if (grant) expect((await locale).record.keys).toEqual(['metadata.locale']);
        else await expect(locale).rejects.toMatchObject({ exit: 7 });
      }
      // 8 agents: orchestrator 7, inference 5, the rest 3 or 2 (validation) — and 8 locales
      expect(allowed).toBe(7 + 5 + 3 * 5 + 2);
      const audit = await room.audit();
      expect(audit).toHaveLength(1 + allowed + 8);
      expect(audit.map((e) => e.state.agent).filter((a) => a === 'stranger')).toEqual([]);
      expect(await s.verify()).toEqual({ commits: 1 + allowed + 8, problems: [] });
    });
  });

  it('the CLI refuses with exit 7, one line naming agent, namespace and key, and writes nothing', () => {
    const store = newStore();
    const init = ctx(store, ['state', 'init', 'design-room', '--schema', 'reasoning-v1'], { env });
    expect(init).toMatchObject({ code: 0, stderr: '', stdout: 'ctx-4aa4b2a1ab58\n' });
    const set = ctx(store, ['state', 'set', 'design-room', 'reasoning.intents', '[{"type":"query","confidence":0.95}]', '--as', 'intent_detection'], { env });
    expect(set).toMatchObject({ code: 0, stderr: '', stdout: 'ctx-edb0fad47d82\n' });
    const tip = git(store, ['rev-parse', 'design-room']);
    const refused = ctx(store, ['state', 'set', 'design-room', 'llm.provider', 'openai', '--as', 'intent_detection'], { env });
    expect(refused).toMatchObject({
      code: 7,
      stdout: '',
      stderr: 'ctx: intent_detection may not write llm.provider on design-room: namespace llm is not in its policy (it may write reasoning, diagnostics, audit, metadata.locale)\n',
    });
    const schema = ctx(store, ['state', 'set', 'design-room', 'reasoning.intents', '[{"type":"query","confidence":1.5}]', '--as', 'intent_detection'], { env });
    expect(schema).toMatchObject({ code: 7, stdout: '', stderr: 'ctx: schema reasoning-v1: $.reasoning.intents[0].confidence must be <= 1\n' });
    const policy = ctx(store, ['policy', 'set', 'design-room', 'intent_detection', 'llm', '--as', 'inference'], { env });
    expect(policy).toMatchObject({ code: 7, stdout: '', stderr: 'ctx: inference may not change the policy of design-room: only an agent with * may (orchestrator)\n' });
    const stdinValue = ctx(store, ['state', 'set', 'design-room', 'llm.provider', '-', '--as', 'inference', '--json'], { env, input: '"anthropic"\n' });
    expect(JSON.parse(stdinValue.stdout)).toEqual({ v: 1, branch: 'design-room', id: expect.stringMatching(/^ctx-/), op: 'set', agent: 'inference', keys: ['llm.provider'], diff: { llm: { added: ['provider'], removed: [], changed: [] } } });
    expect(git(store, ['rev-parse', 'design-room~1'])).toBe(tip);
    expect(ctx(store, ['state', 'get', 'design-room', 'llm.provider', '--json'], { env }).stdout).toBe('{"v":1,"key":"llm.provider","value":"anthropic"}\n');
    expect(ctx(store, ['state', 'get', 'design-room~1', 'llm.provider'], { env })).toMatchObject({ code: 4, stderr: 'ctx: design-room~1: llm.provider is not set\n' });
    expect(ctx(store, ['state', 'set', 'design-room', 'llm.provider', 'not json', '--as', 'inference'], { env })).toMatchObject({ code: 1, stdout: '', stderr: 'ctx: VALUE is not JSON (a bare word is a string; quote anything else): "not json"\n' });
    expect(ctx(store, ['state', 'set', 'design-room', 'llm.provider', 'x'], { env })).toMatchObject({ code: 2, stderr: 'ctx: say which agent writes: --as AGENT (or CTX_AGENT)\n' });
    expect(ctx(store, ['policy', 'show', 'design-room'], { env }).stdout).toBe(
      Object.keys(DEFAULT_POLICY).map((a) => `${a}\t${DEFAULT_POLICY[a].join(',')}\n`).join(''),
    );
    expect(ctx(store, ['verify'], { env })).toMatchObject({ code: 0, stdout: 'ok 3 commits\n' });
    expect(ctx(store, ['stats', 'design-room'], { env }).stdout).toBe(
      'schema\treasoning-v1\ntotal\t147\t10485760\n' +
        [['audit', 3], ['diagnostics', 3], ['enrichment', 3], ['llm', 25], ['metadata', 61], ['reasoning', 49], ['retrieval', 3]].map(([ns, n]) => `namespace\t${ns}\t${n}\t2097152\n`).join('') +
        'array\treasoning.intents\t1\t1000\nexternalized\t0\t0\n',
    );
    expect(ctx(store, ['diff', 'design-room~2', 'design-room'], { env }).stdout).toBe('+ llm.provider\n+ reasoning.intents\n');
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });
});

/** Writes a commit on `branch` with native git only: its meta.json given, `state/<file>` replaced. */
function forge(store: string, branch: string, meta: (m: Record<string, unknown>) => void, file: string, content: string): string {
  const run = (args: string[], input?: string) => execFileSync('git', ['--git-dir', store, ...args], { input, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_DATE: '1767323045 +0000', GIT_COMMITTER_DATE: '1767323045 +0000' } }).trim();
  const blob = run(['hash-object', '-w', '--stdin'], content);
  const state = run(['ls-tree', `${branch}:state`]).split('\n').filter((l) => !l.endsWith(`\t${file}`));
  const stateTree = run(['mktree'], [...state, `100644 blob ${blob}\t${file}`].join('\n') + '\n');
  const m = JSON.parse(run(['cat-file', 'blob', `${branch}:meta.json`]));
  meta(m);
  const sorted = (v: unknown): unknown => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v);
  const metaBlob = run(['hash-object', '-w', '--stdin'], JSON.stringify(sorted(m)) + '\n');
  const root = run(['ls-tree', branch]).split('\n').filter((l) => !/\t(state|meta\.json)$/.test(l));
  const tree = run(['mktree'], [...root, `100644 blob ${metaBlob}\tmeta.json`, `040000 tree ${stateTree}\tstate`].join('\n') + '\n');
  const commit = run(['commit-tree', tree, '-p', branch, '-m', run(['log', '-1', '--format=%B', branch])]);
  run(['update-ref', `refs/heads/${branch}`, commit]);
  return commit;
}

describe('ctx verify', () => {
  it('catches a commit forged with git plumbing that writes a namespace its agent may not: exit 5 naming it', () => {
    const store = newStore();
    ctx(store, ['state', 'init', 'room'], { env });
    ctx(store, ['state', 'set', 'room', 'reasoning.summary', 'ok', '--as', 'summarization'], { env });
    expect(ctx(store, ['verify'], { env }).code).toBe(0);
    const record = { op: 'set', agent: 'intent_detection', keys: ['llm.provider'], diff: { llm: { added: ['provider'], removed: [], changed: [] } } };
    const forged = forge(store, 'room', (m) => void (m.state = record), 'llm.json', '{"provider":"evil"}\n');
    const r = ctx(store, ['verify'], { env });
    expect(r).toMatchObject({ code: 5, stdout: '', stderr: `ctx: ctx-${forged.slice(0, 12)}: writes llm.provider as intent_detection, which the policy at its parent does not allow\n` });
    expect(JSON.parse(ctx(store, ['verify', '--json'], { env }).stdout).problems).toEqual([
      { id: `ctx-${forged}`, problem: 'writes llm.provider as intent_detection, which the policy at its parent does not allow' },
    ]);
 
    // an allowed agent, a value the schema refuses
    const invalid = { op: 'set', agent: 'intent_detection', keys: ['reasoning.intents'], diff: { reasoning: { added: ['intents'], removed: [], changed: [] } } };
    const bad = forge(store, 'room', (m) => void (m.state = invalid), 'reasoning.json', '{"intents":[{"confidence":5,"type":"query"}],"summary":"ok"}\n');
    expect(JSON.parse(ctx(store, ['verify', '--json'], { env }).stdout).problems).toEqual([
      { id: `ctx-${bad}`, problem: 'schema reasoning-v1: $.reasoning.intents[0].confidence must be <= 1' },
      { id: `ctx-${forged}`, problem: 'writes llm.provider as intent_detection, which the policy at its parent does not allow' },
    ]);
  });

  it('catches a state change with no record, a lying record, and a policy change by an agent without *', () => {
    const store = newStore();
    ctx(store, ['state', 'init', 'room'], { env });
    const silent = forge(store, 'room', (m) => void delete m.state, 'llm.json', '{"provider":"evil"}\n');
    const lying = forge(store, 'room', (m) => void (m.state = { op: 'set', agent: 'orchestrator', keys: ['llm.model'], diff: { llm: { added: ['model'], removed: [], changed: [] } } }), 'llm.json', '{"provider":"evil2"}\n');
    const policy = '{"agents":{"intent_detection":["*"],"orchestrator":["*"]},"v":1}\n';
    const grab = forge(store, 'room', (m) => void (m.state = { op: 'policy', agent: 'intent_detection', keys: ['.policy.intent_detection'], diff: {} }), '.policy.json', policy);
    const r = JSON.parse(ctx(store, ['verify', '--json'], { env }).stdout);
    expect(r.problems).toEqual([
      { id: `ctx-${grab}`, problem: 'its state record does not match what changed in state/' },
      { id: `ctx-${grab}`, problem: 'changes the policy as intent_detection, which the policy at its parent does not give *' },
      { id: `ctx-${lying}`, problem: 'its state record does not match what changed in state/' },
      { id: `ctx-${silent}`, problem: 'changes state/ without a state record in meta.json' },
    ]);
  });
});

describe('diff and audit', () => {
  it('over a 100-write history give exact records, and the state at every ancestor is exact', async () => {
    const store = newStore();
    await withStore(store, async (s) => {
      const room = s.state('room');
      const init = await room.init();
      type State = Record<string, Record<string, unknown>>;
      const model: State = Object.fromEntries(NAMESPACES.map((ns) => [ns, {}]));
      model.metadata = { created_at: env.CTX_NOW, session_id: 's-1' };
      const snapshots: State[] = [structuredClone(model)];
      const expected: { id: string | null; agent: string; op: string; keys: string[]; diff: Record<string, unknown> }[] = [];
      const writers = [
        ['intent_detection', 'reasoning', 'intents'],
        ['retrieval_planner', 'retrieval', 'queries'],
        ['inference', 'llm', 'provider'],
        ['validation', 'diagnostics', 'validation_reports'],
        ['context_synthesizer', 'enrichment', 'facts'],
      ] as const;
      for (let i = 0; i < 100; i++) {
        const [agent, ns, key] = writers[i % writers.length];
        const round = Math.floor(i / writers.length);
        const before = model[ns][key];
        let value: unknown;
        if (i % 17 === 16) value = undefined; // a delete
        else if (key === 'intents') value = [{ type: round % 2 ? 'query' : 'analysis', confidence: round / 100 }];
        else if (key === 'queries') value = [{ id: `q${round}`, query_string: `find ${round}` }];
        else if (key === 'provider') value = round % 3 === 0 ? 'openai' : 'anthropic';
        else if (key === 'validation_reports') value = [{ passed: round % 2 === 0, issues: [`issue ${round}`] }];
        else value = [{ id: `f${round}`, content: `fact ${round}`, confidence: 0.5 }];
        const w = value === undefined ? await room.delete(ns, key as never, { as: agent }) : await room.set(ns, key as never, value as never, { as: agent });
        if (value === undefined) delete model[ns][key];
        else model[ns][key] = value;
        const change = before === undefined ? (value === undefined ? null : 'added') : value === undefined ? 'removed' : JSON.stringify(before) === JSON.stringify(value) ? null : 'changed';
        const diff = change ? { [ns]: { added: change === 'added' ? [key] : [], removed: change === 'removed' ? [key] : [], changed: change === 'changed' ? [key] : [] } } : {};
        expect(w.record).toEqual({ op: value === undefined ? 'delete' : 'set', agent, keys: [`${ns}.${key}`], diff });
        expect(w.id === null).toBe(change === null);
        if (w.id) {
          expected.push({ id: w.id, agent, op: w.record.op, keys: [`${ns}.${key}`], diff });
          snapshots.push(structuredClone(model));
        }
      }
      const audit = await room.audit();
      expect(audit.map((e) => ({ id: e.id, agent: e.state.agent, op: e.state.op, keys: e.state.keys, diff: e.state.diff }))).toEqual(
        [{ id: init.id, agent: 'orchestrator', op: 'init', keys: ['metadata.created_at', 'metadata.session_id'], diff: { metadata: { added: ['created_at', 'session_id'], removed: [], changed: [] } } }, ...expected].reverse(),
      );
      const n = snapshots.length - 1;
      const keyDiff = (a: State, b: State) => {
        const out: Record<string, { added: string[]; removed: string[]; changed: string[] }> = {};
        for (const ns of NAMESPACES) {
          const d = { added: [] as string[], removed: [] as string[], changed: [] as string[] };
          for (const k of Object.keys(b[ns]).sort()) if (!(k in a[ns])) d.added.push(k);
          else if (JSON.stringify(a[ns][k]) !== JSON.stringify(b[ns][k])) d.changed.push(k);
          for (const k of Object.keys(a[ns]).sort()) if (!(k in b[ns])) d.removed.push(k);
          if (d.added.length + d.removed.length + d.changed.length) out[ns] = d;
        }
        return out;
      };
      const canon = (v: unknown): unknown => (Array.isArray(v) ? v.map(canon) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])])) : v);
      for (let k = 0; k <= n; k++) {
        expect(await room.all(`room~${k}`)).toEqual(canon(snapshots[n - k]));
        const d = await room.diff(`room~${k}`);
        expect(d.namespaces).toEqual(keyDiff(snapshots[n - k], snapshots[n]));
      }
      expect((await room.diff('room~5', 'room~3')).namespaces).toEqual(keyDiff(snapshots[n - 5], snapshots[n - 3]));
      expect(await s.verify()).toEqual({ commits: n + 1, problems: [] });
    });
    const audit = ctx(store, ['audit', 'room'], { env }).stdout.split('\n');
    expect(audit[audit.length - 2]).toMatch(/^ctx-[0-9a-f]{12}\t2026-01-02T03:04:05.678Z\torchestrator\tinit\tmetadata.created_at,metadata.session_id$/);
    expect(ctx(store, ['diff', 'room~1', 'room'], { env }).stdout).toMatch(/^[~+-] [a-z]+\.[a-z_]+\n$/);
  });
});

describe('agents writing at once', () => {
  // each write is a commit on the branch: one that finds the branch moved reads the new state and writes again on top
  it('8 state sets and 4 policy sets with --retry, all at once: every one lands once, the audit lists each, verify is clean', async () => {
    const store = newStore();
    expect(ctx(store, ['state', 'init', 'room'], { env }).code).toBe(0);
    const agents = NAMESPACES.map((ns) => `agent_${ns}`);
    const runs = await Promise.all([
      ...NAMESPACES.map((ns) => {
        const [key, value] = SAMPLE[ns]('orchestrator');
        return ctxAsync(store, ['state', 'set', 'room', `${ns}.${key}`, JSON.stringify(value), '--as', 'orchestrator', '--retry'], { env });
      }),
      ctxAsync(store, ['state', 'set', 'room', 'metadata.locale', 'fr', '--as', 'orchestrator', '--retry'], { env }),
      ...agents.slice(0, 4).map((a, i) => ctxAsync(store, ['policy', 'set', 'room', a, NAMESPACES[i], '--retry', '--as', 'orchestrator'], { env })),
    ]);
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(runs.map(() => [0, '']));
    const state = JSON.parse(ctx(store, ['state', 'get', 'room', '--json'], { env }).stdout).value;
    for (const ns of NAMESPACES) expect(state[ns][SAMPLE[ns]('orchestrator')[0]]).toEqual(SAMPLE[ns]('orchestrator')[1]);
    expect(state.metadata.locale).toBe('fr');
    const policy = JSON.parse(ctx(store, ['policy', 'show', 'room', '--json'], { env }).stdout);
    expect(agents.slice(0, 4).map((a) => policy.agents[a])).toEqual(NAMESPACES.slice(0, 4).map((ns) => [ns]));
    const audit = ctx(store, ['audit', 'room'], { env }).stdout.trim().split('\n');
    expect(audit.length).toBe(1 + 8 + 4);
    expect(audit.filter((l) => /\tset\t/.test(l)).length).toBe(8);
    expect(audit.filter((l) => /\tpolicy\t/.test(l)).length).toBe(4);
    expect(ctx(store, ['verify', 'room'], { env }).code).toBe(0);
    expect(fsck(store).code).toBe(0);
  }, 120_000);
});

describe('limits', () => {
  it('each limit is hit exactly at its boundary: at the limit accepted, one past refused', async () => {
    const store = newStore();
    await withStore(store, (s) => s.state('room').init().then(() => undefined));
    const base = await withStore(store, (s) => s.state('room').stats());
    // reasoning is `{}\n` (3 bytes); `{"summary":"<n x>"}\n` is n + 15
    config(store, 'ctx.state.maxNamespace', 1000);
    config(store, 'ctx.state.maxArrayItems', 3);
    config(store, 'ctx.state.maxTotal', base.total + 1500);
    await withStore(store, async (s) => {
      const room = s.state('room');
      await room.set('reasoning', 'summary', 'x'.repeat(985), { as: 'summarization' });
      await expect(room.set('reasoning', 'summary', 'x'.repeat(986), { as: 'summarization' })).rejects.toMatchObject({
        exit: 7,
        message: 'namespace reasoning would be 1001 bytes, over its limit of 1000 (ctx.state.maxNamespace)',
      });
      await room.set('enrichment', 'context_links', ['a', 'b', 'c'], { as: 'context_synthesizer' });
      await expect(room.set('enrichment', 'context_links', ['a', 'b', 'c', 'd'], { as: 'context_synthesizer' })).rejects.toMatchObject({
        exit: 7,
        message: '$.enrichment.context_links has 4 items, over the limit of 3 (ctx.state.maxArrayItems)',
      });
      await expect(room.set('retrieval', 'plans', [{ id: 'p', sources: ['a', 'b', 'c', 'd'] }], { as: 'retrieval_planner' })).rejects.toMatchObject({
        message: '$.retrieval.plans[0].sources has 4 items, over the limit of 3 (ctx.state.maxArrayItems)',
      });
      // total: everything else as it is, llm grows until the total is base + 1500
      const now = (await room.stats()).total;
      const left = base.total + 1500 - now; // llm is `{}\n`; `{"model":"<n>"}\n` is n + 13
      await room.set('llm', 'model', 'm'.repeat(left + 3 - 13), { as: 'inference' });
      expect((await room.stats()).total).toBe(base.total + 1500);
      await expect(room.set('llm', 'model', 'm'.repeat(left + 3 - 12), { as: 'inference' })).rejects.toMatchObject({
        exit: 7,
        message: `the state would be ${base.total + 1501} bytes, over its limit of ${base.total + 1500} (ctx.state.maxTotal)`,
      });
    });
    expect(ctx(store, ['state', 'set', 'room', 'reasoning.summary', 'x'.repeat(986), '--as', 'summarization'], { env })).toMatchObject({
      code: 7,
      stderr: 'ctx: namespace reasoning would be 1001 bytes, over its limit of 1000 (ctx.state.maxNamespace)\n',
    });
    config(store, 'ctx.state.maxArrayItems', 0);
    expect(ctx(store, ['state', 'set', 'room', 'reasoning.summary', 'x', '--as', 'summarization'], { env })).toMatchObject({ code: 2, stderr: 'ctx: config ctx.state.maxArrayItems: 0 is not a whole number of items (1 or more)\n' });
  });

  it('the defaults: 1,000 items, values over 100 KB and artifacts over 50 KB externalized, read back transparently', async () => {
    const store = newStore();
    await withStore(store, async (s) => {
      const room = s.state('room');
      await room.init();
      const intents = (n: number) => Array.from({ length: n }, (_, i) => ({ type: `t${i}` }));
      await room.set('reasoning', 'intents', intents(1000), { as: 'intent_detection' });
      await expect(room.set('reasoning', 'intents', intents(1001), { as: 'intent_detection' })).rejects.toMatchObject({ message: '$.reasoning.intents has 1001 items, over the limit of 1000 (ctx.state.maxArrayItems)' });
      // a value of 102,400 bytes as canonical JSON stays inline; 102,401 is its own blob
      await room.set('reasoning', 'summary', 's'.repeat(102398), { as: 'summarization' });
      expect((await room.stats()).externalized).toEqual({ count: 0, bytes: 0 });
      const big = 's'.repeat(102399);
      const w = await room.set('reasoning', 'summary', big, { as: 'summarization' });
      const hash = await artifactHash(Buffer.from(JSON.stringify(big)));
      expect((await room.stats()).externalized).toEqual({ count: 1, bytes: 102401 });
      expect(await room.get('reasoning', 'summary')).toBe(big);
      const commit = w.id!.slice(4);
      const stored = git(store, ['cat-file', 'blob', `${commit}:state/reasoning.json`]);
      expect(stored.endsWith(`"summary":{"$ref":"${hash}","size":102401}}\n`)).toBe(true);
      expect(git(store, ['cat-file', 'blob', `${commit}:state/.blob-${hash.slice(7)}`])).toBe(JSON.stringify(big));
      // an artifact's content: 51,200 bytes inline, 51,201 its own blob
      const art = (n: number) => [{ id: 'a1', type: 'doc', content: 'c'.repeat(n - 2) }];
      await room.set('retrieval', 'artifacts', art(51200), { as: 'retrieval_planner' });
      expect((await room.stats()).externalized.count).toBe(1);
      const a = await room.set('retrieval', 'artifacts', art(51201), { as: 'retrieval_planner' });
      expect((await room.stats()).externalized).toEqual({ count: 2, bytes: 102401 + 51201 });
      expect(await room.get('retrieval', 'artifacts')).toEqual(art(51201));
      expect(git(store, ['cat-file', 'blob', `${a.id!.slice(4)}:state/retrieval.json`])).toMatch(/^\{"artifacts":\[\{"content":\{"\$ref":"blake3:[0-9a-f]{64}","size":51201\},"id":"a1","type":"doc"\}\]\}\n$/);
      // replaced: the old blob leaves the tree (gc may drop it), the state keeps reading
      await room.set('reasoning', 'summary', 'short', { as: 'summarization' });
      expect((await room.stats()).externalized).toEqual({ count: 1, bytes: 51201 });
      expect(await room.get('reasoning', 'summary', { at: 'room~2' })).toBe(big);
      expect(await s.verify()).toMatchObject({ problems: [] });
    });
    // every externalized value is reachable from its commit's tree: pruning everything else keeps them
    git(store, ['gc', '--prune=now', '--quiet']);
    const got = ctx(store, ['state', 'get', 'room~2', 'reasoning.summary'], { env });
    expect(got.stdout).toBe(`"${'s'.repeat(102399)}"\n`);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });
});

describe('migrations', () => {
  it('v1 to a test v2 as a new commit; old commits untouched; a reader that knows only v1 refuses cleanly', async () => {
    const store = newStore();
    ctx(store, ['state', 'init', 'room'], { env });
    ctx(store, ['state', 'set', 'room', 'llm.provider', 'openai', '--as', 'inference'], { env });
    const v2 = join(FIXTURES, 'state', 'reasoning-v2.mjs');
    expect(ctx(store, ['migrate', 'room', '--to', '2', '--as', 'orchestrator'], { env })).toMatchObject({ code: 4, stderr: 'ctx: no migration to reasoning-v2 is known (register it: ctx migrate --with FILE, or registerStateSchema)\n' });
    const m = ctx(store, ['migrate', 'room', '--to', '2', '--with', v2, '--as', 'orchestrator', '--json'], { env });
    expect(m.stderr).toBe('');
    expect(JSON.parse(m.stdout)).toEqual({
      v: 1,
      branch: 'room',
      id: expect.stringMatching(/^ctx-[0-9a-f]{40}$/),
      op: 'migrate',
      agent: 'orchestrator',
      keys: ['llm.provider', 'llm.providers'],
      diff: { llm: { added: ['providers'], removed: ['provider'], changed: [] } },
    });
    const id = JSON.parse(m.stdout).id.slice(4, 16);
    expect(ctx(store, ['state', 'get', 'room', 'llm'], { env })).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `ctx: ctx-${id}: state schema reasoning-v2 is newer than this ctx knows (reasoning-v1); upgrade ctx, or register reasoning-v2 with its migration\n`,
    });
    expect(ctx(store, ['state', 'get', 'room~1', 'llm'], { env }).stdout).toBe('{"provider":"openai"}\n');
    expect(ctx(store, ['verify'], { env })).toMatchObject({ code: 0, stdout: 'ok 3 commits\n' });
    expect(JSON.parse(ctx(store, ['audit', 'room', '--json'], { env }).stdout.split('\n')[0]).schema).toEqual({ from: 'reasoning-v1', to: 'reasoning-v2' });
    // a reader that registered v2 reads it, and writes by it
    const mod = (await import(v2)).default;
    registerStateSchema(mod.schema, mod.migrate);
    await withStore(store, async (s) => {
      const room = s.state<{ llm: { providers: string[] } }>('room');
      expect(await room.get('llm', 'providers')).toEqual(['openai']);
      await expect(room.set('llm', 'provider' as 'providers', ['x'], { as: 'inference' })).rejects.toMatchObject({ exit: 7, message: expect.stringMatching(/^schema reasoning-v2: \$\.llm\.provider: reasoning-v2 has no key provider in llm/) });
      await room.set('llm', 'providers', ['openai', 'anthropic'], { as: 'inference' });
    });
  });
});

describe.each(ENGINES)('state carried by later commits (%s engine)', (engine) => {
  it('a checkpoint and a 20-commit chain keep the parent\'s state/ tree; materialize is unchanged by state commits', async () => {
    const store = newStore();
    const line = (t: string) => Buffer.from(JSON.stringify({ type: 'user', message: { role: 'user', content: t } }) + '\n');
    const ids = await withStore(
      store,
      async (s) => {
        await s.checkpoint({ branch: 'room', format: 'claude-code-v1', artifact: line('hello') });
        await s.state('room').init();
        await s.state('room').set('reasoning', 'summary', 'greeting', { as: 'summarization' });
        const after = await s.checkpoint({ branch: 'room', format: 'claude-code-v1', artifact: line('again') });
        const chain = await writeChain(s.ctx, 'room', 'claude-code-v1', Array.from({ length: 20 }, (_, i) => ({ artifact: line(`turn ${i}`) })), undefined, after.id.slice(4));
        const m = await s.materialize('room');
        expect(Buffer.from(m.bytes).toString()).toBe(['hello', 'again', ...Array.from({ length: 20 }, (_, i) => `turn ${i}`)].map((t) => line(t).toString()).join(''));
        expect(await s.state('room').get('reasoning', 'summary')).toBe('greeting');
        expect(await s.verify()).toEqual({ commits: 24, problems: [] });
        return { after: after.id, tip: chain[chain.length - 1].oid };
      },
      engine,
    );
    const stateTree = git(store, ['rev-parse', 'room~21:state']);
    expect(git(store, ['rev-parse', 'room~22:state'])).not.toBe(stateTree);
    for (let k = 0; k <= 20; k++) expect(git(store, ['rev-parse', `room~${k}:state`])).toBe(stateTree);
    // the same ids from either engine
    expect(ids.after).toBe('ctx-c5bc512b2ace93e39f6deed273832c699a57a85f');
    expect(fsck(store)).toEqual({ code: 0, output: '' });
  });
});

describe('a state commit holds no messages', () => {
  it('in a format whose every artifact is whole, it stores the tip\'s artifact again (the same blob): materialize is unchanged', () => {
    const store = newStore();
    const chat = '{"sessionId":"x","messages":[{"type":"user","content":"hi","timestamp":"2026-01-01T00:00:00Z"}]}\n';
    expect(ctx(store, ['checkpoint', '-b', 'g', '--format', 'gemini-cli-chat-v1', '--session', 'gem-1', '-'], { env, input: chat }).code).toBe(0);
    const before = ctx(store, ['materialize', 'g'], { env }).stdout;
    expect(ctx(store, ['state', 'init', 'g'], { env }).code).toBe(0);
    expect(ctx(store, ['state', 'get', 'g', 'metadata'], { env }).stdout).toBe(`{"created_at":"${env.CTX_NOW}","session_id":"gem-1"}\n`);
    expect(ctx(store, ['materialize', 'g'], { env }).stdout).toBe(before);
    expect(git(store, ['rev-parse', 'g:delta.json'])).toBe(git(store, ['rev-parse', 'g~1:delta.json']));
  });
});

describe('secrets', () => {
  it('a state value goes through the secret policy: redacted (counted in meta.json), or refused under block', () => {
    const store = newStore();
    const token = `ghp_${'Q7vR2mK9wZ4tL1xB8nC3'.repeat(2).slice(0, 36)}`;
    ctx(store, ['state', 'init', 'room'], { env });
    const set = ctx(store, ['state', 'set', 'room', 'diagnostics.errors', JSON.stringify([{ message: `push failed with ${token}` }]), '--as', 'validation'], { env });
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(ctx(store, ['state', 'get', 'room', 'diagnostics.errors'], { env }).stdout).toBe('[{"message":"push failed with [REDACTED:github-token]"}]\n');
    expect(JSON.parse(ctx(store, ['show', 'room', '--json'], { env }).stdout).meta.redactions).toEqual({ 'github-token': 1 });
    expect(git(store, ['cat-file', 'blob', 'room:state/diagnostics.json'])).toBe('{"errors":[{"message":"push failed with [REDACTED:github-token]"}]}\n');
    execFileSync('git', ['config', '-f', join(store, 'config'), 'ctx.secrets', 'block']);
    const tip = git(store, ['rev-parse', 'room']);
    expect(ctx(store, ['state', 'set', 'room', 'diagnostics.errors', JSON.stringify([{ message: token }]), '--as', 'validation'], { env })).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'ctx: secret found: github-token in the value of diagnostics.errors; nothing written\n',
    });
    expect(git(store, ['rev-parse', 'room'])).toBe(tip);
  });
});

describe('bad input', () => {
  it('unknown schema, a schema file without <name>-vN, a state key that is not NS.KEY, state on a branch without it', () => {
    const store = newStore();
    const dir = tempDir();
    expect(ctx(store, ['state', 'init', 'room', '--schema', 'nope-v1'], { env })).toMatchObject({ code: 4, stderr: 'ctx: unknown state schema nope-v1 (shipped: reasoning-v1; or give a JSON Schema file)\n' });
    const file = join(dir, 'mine.json');
    writeFileSync(file, JSON.stringify({ $id: 'mine', properties: { notes: { type: 'object' } } }));
    expect(ctx(store, ['state', 'init', 'room', '--schema', file], { env })).toMatchObject({ code: 1, stderr: 'ctx: the schema: $id must be <name>-v<N> (e.g. reasoning-v1), not "mine"\n' });
    writeFileSync(file, JSON.stringify({ $id: 'notes-v1', properties: { notes: { type: 'object', properties: { todo: { type: 'array', items: { type: 'string' } } } } } }));
    expect(ctx(store, ['state', 'init', 'room', '--schema', file, '--as', 'orchestrator'], { env }).code).toBe(0);
    expect(ctx(store, ['state', 'set', 'room', 'notes.todo', '["a",1]', '--as', 'orchestrator'], { env })).toMatchObject({ code: 7, stderr: 'ctx: schema notes-v1: $.notes.todo[1] must be string\n' });
    expect(ctx(store, ['state', 'set', 'room', 'notes.todo', '["a"]', '--as', 'orchestrator'], { env }).code).toBe(0);
    expect(ctx(store, ['state', 'get', 'room'], { env }).stdout).toBe('{"notes":{"todo":["a"]}}\n');
    expect(ctx(store, ['state', 'set', 'room', 'Notes', '1', '--as', 'orchestrator'], { env })).toMatchObject({ code: 2, stderr: 'ctx: not a state key: "Notes" (NAMESPACE.KEY, e.g. reasoning.intents)\n' });
    expect(ctx(store, ['state', 'init', 'room'], { env })).toMatchObject({ code: 1, stderr: 'ctx: room already has structured state\n' });
    ctx(store, ['checkpoint', '-b', 'plain', '--format', 'claude-code-v1', '-'], { env, input: '{"type":"user"}\n' });
    expect(ctx(store, ['state', 'get', 'plain'], { env })).toMatchObject({ code: 4, stderr: 'ctx: plain has no structured state: ctx state init plain adds it\n' });
    expect(ctx(store, ['stats', 'plain'], { env }).code).toBe(4);
    expect(readFileSync(join(store, 'HEAD'), 'utf8')).toMatch(/^ref: /);
  });
});
