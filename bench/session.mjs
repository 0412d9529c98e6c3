// The library's session (store.session): `messages()` of a 1,000-turn openai-chat-v1 session, cold
// (a new process, no cache, against `node -e 0`) and in-process after one more append, side by side with native git
// reading the same artifacts (`git log | git cat-file --batch`), in interleaved rounds (CPU from GNU time).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { DIST, FIXED_ENV, NODE, fmtRatio, git, median, progress, rounds, table, tempDir } from './lib.mjs';
import { measured } from './resume.mjs';

const turn = (i) => [
  { role: 'user', content: `step ${i}: ${'what should change next in the parser and why? '.repeat(8)}` },
  { role: 'assistant', content: `done with step ${i}: ${'the parser now reads the header once. '.repeat(12)}` },
];

export async function benchSession({ turns = 1000, n = 7 } = {}) {
  const dir = tempDir('session');
  const path = join(dir, 'store.git');
  const lib = await import(pathToFileURL(join(DIST, 'index.js')).href);
  const store = await lib.openStore(path, { create: true, env: FIXED_ENV, engine: 'git' });
  const conversation = [];
  const s = store.session('loop', { author: 'coder' });
  progress(`session: ${turns} appends`);
  for (let i = 0; i < turns; i++) {
    conversation.push(...turn(i));
    await s.append(conversation);
  }
  git(path, ['gc', '--quiet']);
  const script = join(dir, 'messages.mjs');
  writeFileSync(script, `import { openStore } from ${JSON.stringify(pathToFileURL(join(DIST, 'index.js')).href)};\nconst st = await openStore(${JSON.stringify(path)});\nconst m = await st.session('loop').messages();\nif (m.length !== ${turns * 2}) throw new Error('wrong count ' + m.length);\nawait st.close();\n`);
  const q = JSON.stringify(path);
  const cpu = {
    node: () => measured(NODE, ['-e', '0']).cpu,
    native: () => measured('bash', ['-c', `git --git-dir ${q} log --format=%H:delta.json loop | git --git-dir ${q} cat-file --batch > /dev/null`]).cpu,
    cold: () => {
      rmSync(join(path, 'ctx', 'cache'), { recursive: true, force: true });
      return measured(NODE, [script]).cpu;
    },
  };
  progress(`session: messages() cold vs native, ${n} interleaved rounds`);
  const r = await rounds({ n, variants: cpu });
  // in-process: one more turn appended, then the context read back
  const after = [];
  const append = [];
  for (let i = 0; i < n; i++) {
    conversation.push(...turn(turns + i));
    let t = performance.now();
    await s.append(conversation);
    append.push(performance.now() - t);
    t = performance.now();
    const m = await s.messages();
    after.push(performance.now() - t);
    if (m.length !== conversation.length) throw new Error(`messages(): ${m.length} of ${conversation.length}`);
  }
  await store.close();
  const rows = [
    ['`node -e 0`, CPU (the floor of any node process)', r.node.median.toFixed(0), ''],
    ['native git, the artifacts (`git log | git cat-file --batch`), CPU', r.native.median.toFixed(0), ''],
    ['ctx: a new process, `session.messages()` cold, CPU', r.cold.median.toFixed(0), r.native.median >= 10 ? fmtRatio(r.cold.median / r.native.median) : 'native under GNU time\'s 10 ms resolution'],
    ['ctx in-process: `append` of one more turn, wall', median(append).toFixed(1), ''],
    ['ctx in-process: `messages()` after it, wall', median(after).toFixed(1), ''],
  ];
  return {
    markdown: [`## Library session: ${turns.toLocaleString('en-US')} turns (openai-chat-v1, packed)\n`, table(['what', 'ms (median)', 'vs native'], rows), ''].join('\n'),
  };
}
