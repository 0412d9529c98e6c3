// CtxSaver (agent-ctx/langgraph) against LangGraph's SqliteSaver on the same StateGraph: 1,000 steps
// of a looping agent (one message a step, a 50 KB document channel set once), in interleaved rounds
// of 100 steps; then put and getTuple latency, list of the thread, storage after 100 and 1,000 steps,
// and a fork (updateState on the step-500 checkpoint, then one step). SqliteSaver and better-sqlite3
// are bench-only peers in bench/peers/ (installed here when missing, never by the top-level npm ci).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { DIST, FIXED_ENV, ROOT, fmtInt, git, median, progress, run, table, tempDir } from './lib.mjs';

const PEERS = join(ROOT, 'bench', 'peers');
const ROUND = 100;

/** bench/peers/node_modules, installed from its lock file the first time. */
function peers() {
  if (!existsSync(join(PEERS, 'node_modules', '@langchain', 'langgraph-checkpoint-sqlite'))) {
    progress('langgraph: installing bench/peers (SqliteSaver, better-sqlite3 built from source)');
    run('npm', ['ci', '--prefix', PEERS, '--no-audit', '--no-fund']);
  }
  return createRequire(join(PEERS, 'package.json'));
}

function bytesUnder(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((n, e) => n + bytesUnder(join(path, e)), 0);
}

/** `git gc` of a store whose savers are closed: after their background `gc --auto` is done (two repacks at once fail) and once more if one started meanwhile. */
async function gcAfterSavers(path) {
  const settled = async () => {
    for (let i = 0; i < 600 && existsSync(join(path, 'gc.pid')); i++) await new Promise((r) => setTimeout(r, 200));
  };
  await settled();
  try {
    git(path, ['gc', '--quiet']);
  } catch {
    await new Promise((r) => setTimeout(r, 2000));
    await settled();
    git(path, ['gc', '--quiet']);
  }
}

/** Milliseconds of this process's CPU (user + system) since `from` (a process.cpuUsage()); both savers run in-process. */
const cpuMs = (from) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};

const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];

/** An agent loop: each step counts; every 10th adds a ~200-byte message (LangChain's (de)serialization of long message lists would otherwise be all there is to measure). */
async function graphOf(saver) {
  const { StateGraph, MessagesAnnotation, Annotation, START, END } = await import('@langchain/langgraph');
  const { AIMessage } = await import('@langchain/core/messages');
  const State = Annotation.Root({ ...MessagesAnnotation.spec, doc: Annotation({ reducer: (_, b) => b, default: () => '' }), n: Annotation({ reducer: (_, b) => b, default: () => 0 }) });
  return new StateGraph(State)
    .addNode('agent', (s) => ({
      n: s.n + 1,
      ...(s.n % 10 === 9 ? { messages: [new AIMessage({ id: `ai-${s.n}`, content: `step ${s.n}: ${'the parser reads the header once, then the body in blocks. '.repeat(3)}` })] } : {}),
    }))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', (s) => (s.n % ROUND === 0 ? END : 'agent'))
    .compile({ checkpointer: saver });
}

export async function benchLangGraph({ steps = 1000, samples = 100 } = {}) {
  const req = peers();
  const { SqliteSaver } = req('@langchain/langgraph-checkpoint-sqlite');
  const { HumanMessage } = await import('@langchain/core/messages');
  const { CtxSaver } = await import(pathToFileURL(join(DIST, 'langgraph.js')).href);
  const { openStore } = await import(pathToFileURL(join(DIST, 'index.js')).href);
  const dir = tempDir('langgraph');
  const storePath = join(dir, 'ctx.git');
  const dbPath = join(dir, 'sqlite.db');
  const ctxSaver = new CtxSaver({ store: await openStore(storePath, { create: true, env: FIXED_ENV, engine: 'git' }) });
  const sqlite = SqliteSaver.fromConnString(dbPath);
  const savers = { ctx: ctxSaver, sqlite };
  const storeBytes = (path) => bytesUnder(join(path, 'objects')) + bytesUnder(join(path, 'refs'));
  const size = { ctx: () => storeBytes(storePath), sqlite: () => bytesUnder(dbPath) + bytesUnder(`${dbPath}-wal`) };
  // BENCH_LANGGRAPH_BEFORE=DIR: another build's CtxSaver (DIR/dist) in the same interleaved rounds, a column of its own
  const beforeDir = process.env.BENCH_LANGGRAPH_BEFORE;
  if (beforeDir) {
    const dist = join(beforeDir, 'dist');
    const { CtxSaver: Before } = await import(pathToFileURL(join(dist, 'langgraph.js')).href);
    const { openStore: openBefore } = await import(pathToFileURL(join(dist, 'index.js')).href);
    const beforePath = join(dir, 'before.git');
    savers.before = new Before({ store: await openBefore(beforePath, { create: true, env: FIXED_ENV, engine: 'git' }) });
    size.before = () => storeBytes(beforePath);
  }
  const graphs = {};
  for (const k of Object.keys(savers)) graphs[k] = await graphOf(savers[k]);
  const lists = () => Object.fromEntries(Object.keys(savers).map((k) => [k, []]));
  const cfg = { configurable: { thread_id: 'bench' }, recursionLimit: ROUND + 10 };
  const doc = 'a document every step carries and none changes. '.repeat(1000);
  const run1000 = lists();
  const storage = Object.fromEntries(Object.keys(savers).map((k) => [k, {}]));
  progress(`langgraph: ${steps} steps on each saver, interleaved rounds of ${ROUND}`);
  for (let done = 0; done < steps; done += ROUND) {
    for (const k of Object.keys(savers)) {
      const t = performance.now();
      await graphs[k].invoke({ messages: [new HumanMessage({ id: `h-${done}`, content: `round ${done / ROUND}` })], ...(done === 0 ? { doc } : {}) }, cfg);
      run1000[k].push(performance.now() - t);
      if (done + ROUND === 100 || done + ROUND === steps) storage[k][done + ROUND] = size[k]();
    }
  }
  const history = lists();
  for (const k of Object.keys(savers)) for await (const t of savers[k].list({ configurable: { thread_id: 'bench' } })) history[k].push(t);
  const last = history.ctx[0];
  // put: a checkpoint one message longer than the newest, on a thread of its own, awaited one at a time
  const lat = { put: lists(), get: lists(), getOld: lists(), list: lists(), fork: lists() };
  const cpu = { put: lists(), get: lists(), getOld: lists(), list: lists(), fork: lists() };
  progress(`langgraph: ${samples} puts and getTuples each, interleaved`);
  const parent = {};
  const { uuid6 } = await import('@langchain/langgraph-checkpoint');
  const { AIMessage } = await import('@langchain/core/messages');
  let messages = [...last.checkpoint.channel_values.messages];
  for (let i = 0; i < samples; i++) {
    messages = [...messages, new AIMessage({ id: `p-${i}`, content: `put ${i}` })];
    const id = uuid6(-3);
    const version = 10_000 + i;
    const checkpoint = { ...last.checkpoint, id, ts: new Date().toISOString(), channel_values: { ...last.checkpoint.channel_values, messages }, channel_versions: { ...last.checkpoint.channel_versions, messages: version } };
    for (const k of Object.keys(savers)) {
      const t = performance.now();
      let c = process.cpuUsage();
      parent[k] = await savers[k].put({ configurable: { thread_id: 'puts', checkpoint_ns: '', ...(parent[k]?.configurable ?? {}) } }, checkpoint, { source: 'loop', step: i, parents: {} }, { messages: version });
      lat.put[k].push(performance.now() - t);
      cpu.put[k].push(cpuMs(c));
      const t2 = performance.now();
      c = process.cpuUsage();
      await savers[k].getTuple({ configurable: { thread_id: 'bench' } });
      lat.get[k].push(performance.now() - t2);
      cpu.get[k].push(cpuMs(c));
      const old = history[k][(i * 7919) % history[k].length].config;
      const t3 = performance.now();
      c = process.cpuUsage();
      await savers[k].getTuple(old);
      lat.getOld[k].push(performance.now() - t3);
      cpu.getOld[k].push(cpuMs(c));
    }
  }
  progress('langgraph: list and fork');
  for (let i = 0; i < 2; i++)
    for (const k of Object.keys(savers)) {
      const t = performance.now();
      const c = process.cpuUsage();
      let n = 0;
      for await (const _ of savers[k].list({ configurable: { thread_id: 'bench' } })) n++;
      lat.list[k].push(performance.now() - t);
      cpu.list[k].push(cpuMs(c));
      if (n !== history[k].length) throw new Error(`${k} listed ${n} checkpoints, not ${history[k].length}`);
    }
  for (let i = 0; i < 5; i++)
    for (const k of Object.keys(savers)) {
      const at = history[k].find((h) => h.metadata.step === 500 - i * 10);
      const t = performance.now();
      const c = process.cpuUsage();
      const forked = await graphs[k].updateState(at.config, { messages: [new HumanMessage({ id: `f-${i}`, content: `fork ${i}` })] });
      await savers[k].getTuple(forked);
      lat.fork[k].push(performance.now() - t);
      cpu.fork[k].push(cpuMs(c));
    }
  const checkpoints = history.ctx.length;
  await ctxSaver.close();
  await gcAfterSavers(storePath);
  const packed = bytesUnder(join(storePath, 'objects'));
  let gcFailed = null;
  if (savers.before) {
    await savers.before.close();
    try {
      await gcAfterSavers(join(dir, 'before.git'));
    } catch (e) {
      // the other build's store is its own finding, not a reason to lose this run's table
      gcFailed = String(e.message).split('\n').slice(0, 2).join(' ');
      progress(`langgraph: git gc of the ${beforeDir} store failed: ${gcFailed}`);
    }
  }
  const packedBefore = savers.before && !gcFailed ? bytesUnder(join(dir, 'before.git', 'objects')) : NaN;
  const cols = Object.keys(savers);
  // a row: each saver's number (lower is better), and which of ctx and SqliteSaver wins
  const row = (label, value, show = (v) => v.toFixed(2)) => [label, ...cols.map((k) => show(value(k))), value('ctx') < value('sqlite') ? '**ctx**' : 'sqlite'];
  const med = (series) => (k) => median(series[k]);
  const p99of = (series) => (k) => p99(series[k]);
  const bytes = (v) => fmtInt(v);
  const rows = [
    row('1,000-step run (10 invokes of 100 steps), ms a step', (k) => median(run1000[k].map((x) => x / ROUND))),
    row('put, median ms', med(lat.put)),
    row('put, p99 ms', p99of(lat.put)),
    row('put, median CPU ms', med(cpu.put)),
    row('put, p99 CPU ms', p99of(cpu.put)),
    row('getTuple (newest), median ms', med(lat.get)),
    row('getTuple (newest), p99 ms', p99of(lat.get)),
    row('getTuple (newest), median CPU ms', med(cpu.get)),
    row('getTuple (an older checkpoint by id), median ms', med(lat.getOld)),
    row('getTuple (an older checkpoint by id), p99 ms', p99of(lat.getOld)),
    row('getTuple (an older checkpoint by id), median CPU ms', med(cpu.getOld)),
    row(`list of the thread (${fmtInt(checkpoints)} checkpoints), median ms`, med(lat.list)),
    row(`list of the thread, median CPU ms`, med(cpu.list)),
    row('fork (updateState on an old checkpoint + getTuple), median ms', med(lat.fork)),
    row('fork, median CPU ms', med(cpu.fork)),
    row('storage after 100 steps, bytes', (k) => storage[k][100], bytes),
    row(`storage after ${fmtInt(steps)} steps, bytes`, (k) => storage[k][steps], bytes),
    row(`storage after ${fmtInt(steps)} steps and git gc, bytes`, (k) => ({ ctx: packed, before: packedBefore })[k] ?? storage[k][steps], bytes),
  ];
  const markdown = [
    `## LangGraph checkpointers: CtxSaver against SqliteSaver, ${fmtInt(steps)} steps\n`,
    `The same StateGraph on each (an agent node counting steps and adding a ~200-byte message every 10th, a ${fmtInt(doc.length)}-byte document channel set once), ` +
      `${steps / ROUND} interleaved invokes of ${ROUND} steps; then ${samples} awaited puts (a checkpoint one message longer) and getTuples, ` +
      `2 lists of the thread and 5 forks, interleaved. Wall ms, and CPU ms of the bench process (user + system; both savers run in it; a background \`git gc --auto\` that ctx starts is not counted). ctx: the git engine, storage = \`objects/\` + \`refs/\`; SqliteSaver: the database file (+ WAL).\n`,
    table(['', 'CtxSaver', 'SqliteSaver', ...(savers.before ? [`CtxSaver (${beforeDir})`] : []), 'faster / smaller'], rows),
    ...(gcFailed ? ['', `\`git gc\` of the ${beforeDir} store failed: ${gcFailed}`] : []),
    '',
  ].join('\n');
  return { markdown, summary: { rows } };
}
