// One process of CtxSaver puts for test/saver-gc.test.ts: `node saver-writer.mjs DIST STORE THREAD N`.
// A LangGraph-shaped chain (a growing messages channel, a 20 KB document carried unchanged by id,
// pending writes after each put, every 7th put forked from an older checkpoint); prints each put's
// checkpoint id, one a line, once its put has returned.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, store, thread, count] = process.argv.slice(2);
const { CtxSaver } = await import(pathToFileURL(join(dist, 'langgraph.js')).href);
const { uuid6 } = await import('@langchain/langgraph-checkpoint');
const saver = await CtxSaver.open(store);
const doc = `${thread}: a document every checkpoint carries and none changes. `.repeat(300);
const ids = [];
let parent;
for (let i = 0; i < Number(count); i++) {
  const id = uuid6(-3);
  // a fork: the put's parent is an older checkpoint, so the saver keeps the old tip as a line of its own
  const from = i % 7 === 6 ? ids[ids.length - 3] : parent;
  const messages = Array.from({ length: i + 1 }, (_, k) => `${thread} message ${k}`);
  const checkpoint = { v: 4, id, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), channel_values: { messages, doc, n: i }, channel_versions: { messages: i + 1, doc: 1, n: i + 1 }, versions_seen: {} };
  const newVersions = i === 0 ? { messages: 1, doc: 1, n: 1 } : { messages: i + 1, n: i + 1 };
  const config = { configurable: { thread_id: thread, checkpoint_ns: '', ...(from ? { checkpoint_id: from } : {}) } };
  parent = (await saver.put(config, checkpoint, { source: 'loop', step: i, parents: {} }, newVersions)).configurable.checkpoint_id;
  await saver.putWrites({ configurable: { thread_id: thread, checkpoint_ns: '', checkpoint_id: id } }, [['n', i + 1]], `task-${i}`);
  ids.push(id);
  process.stdout.write(`${id}\n`);
}
await saver.close();
