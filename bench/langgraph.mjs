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
  const size = { ctx: () => bytesUnder(join(storePath, 'objects')) + bytesUnder(join(storePath, 'refs')), sqlite: () => bytesUnder(dbPath) + bytesUnder(`${dbPath}-wal`) };
  const graphs = { ctx: await graphOf(ctxSaver), sqlite: await graphOf(sqlite) };
  const cfg = { configurable: { thread_id: 'bench' }, recursionLimit: ROUND + 10 };
  const doc = 'a document every step carries and none changes. '.repeat(1000);
  const run1000 = { ctx: [], sqlite: [] };
  const storage = { ctx: {}, sqlite: {} };
  progress(`langgraph: ${steps} steps on each saver, interleaved rounds of ${ROUND}`);
  for (let done = 0; done < steps; done += ROUND) {
    for (const k of Object.keys(savers)) {
      const t = performance.now();
      await graphs[k].invoke({ messages: [new HumanMessage({ id: `h-${done}`, content: `round ${done / ROUND}` })], ...(done === 0 ? { doc } : {}) }, cfg);
      run1000[k].push(performance.now() - t);
      if (done + ROUND === 100 || done + ROUND === steps) storage[k][done + ROUND] = size[k]();
    }
  }
  const history = { ctx: [], sqlite: [] };
  for (const k of Object.keys(savers)) for await (const t of savers[k].list({ configurable: { thread_id: 'bench' } })) history[k].push(t);
  const last = history.ctx[0];
  // put: a checkpoint one message longer than the newest, on a thread of its own, awaited one at a time
  const lat = { put: { ctx: [], sqlite: [] }, get: { ctx: [], sqlite: [] }, getOld: { ctx: [], sqlite: [] }, list: { ctx: [], sqlite: [] }, fork: { ctx: [], sqlite: [] } };
  progress(`langgraph: ${samples} puts and getTuples each, interleaved`);
  const parent = { ctx: undefined, sqlite: undefined };
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
      parent[k] = await savers[k].put({ configurable: { thread_id: 'puts', checkpoint_ns: '', ...(parent[k]?.configurable ?? {}) } }, checkpoint, { source: 'loop', step: i, parents: {} }, { messages: version });
      lat.put[k].push(performance.now() - t);
      const t2 = performance.now();
      await savers[k].getTuple({ configurable: { thread_id: 'bench' } });
      lat.get[k].push(performance.now() - t2);
      const old = history[k][(i * 7919) % history[k].length].config;
      const t3 = performance.now();
      await savers[k].getTuple(old);
      lat.getOld[k].push(performance.now() - t3);
    }
  }
  progress('langgraph: list and fork');
  for (let i = 0; i < 2; i++)
    for (const k of Object.keys(savers)) {
      const t = performance.now();
      let n = 0;
      for await (const _ of savers[k].list({ configurable: { thread_id: 'bench' } })) n++;
      lat.list[k].push(performance.now() - t);
      if (n !== history[k].length) throw new Error(`${k} listed ${n} checkpoints, not ${history[k].length}`);
    }
  for (let i = 0; i < 5; i++)
    for (const k of Object.keys(savers)) {
      const at = history[k].find((h) => h.metadata.step === 500 - i * 10);
      const t = performance.now();
      const forked = await graphs[k].updateState(at.config, { messages: [new HumanMessage({ id: `f-${i}`, content: `fork ${i}` })] });
      await savers[k].getTuple(forked);
      lat.fork[k].push(performance.now() - t);
    }
  const checkpoints = history.ctx.length;
  await ctxSaver.close();
  git(storePath, ['gc', '--quiet']);
  const packed = bytesUnder(join(storePath, 'objects'));
  const ms = (xs) => median(xs).toFixed(2);
  const win = (a, b) => (median(a) < median(b) ? '**ctx**' : 'sqlite');
  const rows = [
    ['1,000-step run (10 invokes of 100 steps), ms', ms(run1000.ctx.map((x) => x / ROUND)) + ' a step', ms(run1000.sqlite.map((x) => x / ROUND)) + ' a step', win(run1000.ctx, run1000.sqlite)],
    ['put, median ms', ms(lat.put.ctx), ms(lat.put.sqlite), win(lat.put.ctx, lat.put.sqlite)],
    ['put, p99 ms', p99(lat.put.ctx).toFixed(2), p99(lat.put.sqlite).toFixed(2), p99(lat.put.ctx) < p99(lat.put.sqlite) ? '**ctx**' : 'sqlite'],
    ['getTuple (newest), median ms', ms(lat.get.ctx), ms(lat.get.sqlite), win(lat.get.ctx, lat.get.sqlite)],
    ['getTuple (newest), p99 ms', p99(lat.get.ctx).toFixed(2), p99(lat.get.sqlite).toFixed(2), p99(lat.get.ctx) < p99(lat.get.sqlite) ? '**ctx**' : 'sqlite'],
    ['getTuple (an older checkpoint by id), median ms', ms(lat.getOld.ctx), ms(lat.getOld.sqlite), win(lat.getOld.ctx, lat.getOld.sqlite)],
    ['getTuple (an older checkpoint by id), p99 ms', p99(lat.getOld.ctx).toFixed(2), p99(lat.getOld.sqlite).toFixed(2), p99(lat.getOld.ctx) < p99(lat.getOld.sqlite) ? '**ctx**' : 'sqlite'],
    [`list of the thread (${fmtInt(checkpoints)} checkpoints), median ms`, ms(lat.list.ctx), ms(lat.list.sqlite), win(lat.list.ctx, lat.list.sqlite)],
    ['fork (updateState on an old checkpoint + getTuple), median ms', ms(lat.fork.ctx), ms(lat.fork.sqlite), win(lat.fork.ctx, lat.fork.sqlite)],
    ['storage after 100 steps, bytes', fmtInt(storage.ctx[100]), fmtInt(storage.sqlite[100]), storage.ctx[100] < storage.sqlite[100] ? '**ctx**' : 'sqlite'],
    [`storage after ${fmtInt(steps)} steps, bytes`, fmtInt(storage.ctx[steps]), fmtInt(storage.sqlite[steps]), storage.ctx[steps] < storage.sqlite[steps] ? '**ctx**' : 'sqlite'],
    [`storage after ${fmtInt(steps)} steps and git gc, bytes`, fmtInt(packed), fmtInt(storage.sqlite[steps]), packed < storage.sqlite[steps] ? '**ctx**' : 'sqlite'],
  ];
  const markdown = [
    `## LangGraph checkpointers: CtxSaver against SqliteSaver, ${fmtInt(steps)} steps\n`,
    `The same StateGraph on each (an agent node counting steps and adding a ~200-byte message every 10th, a ${fmtInt(doc.length)}-byte document channel set once), ` +
      `${steps / ROUND} interleaved invokes of ${ROUND} steps; then ${samples} awaited puts (a checkpoint one message longer) and getTuples, ` +
      `2 lists of the thread and 5 forks, interleaved. ctx: the git engine, storage = \`objects/\` + \`refs/\`; SqliteSaver: the database file (+ WAL).\n`,
    table(['', 'CtxSaver', 'SqliteSaver', 'faster / smaller'], rows),
    '',
  ].join('\n');
  return { markdown, summary: { rows } };
}
