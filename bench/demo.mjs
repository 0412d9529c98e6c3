// The README's main job: import a Claude Code transcript from fixtures/ and show its log.
import { rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const store = '.ctx-demo';
// a fixed identity, so the ids printed are the README's on any machine
const env = { ...process.env, CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'laptop' };
rmSync(store, { recursive: true, force: true });
const ctx = (...args) => {
  console.error(`$ ctx ${args.join(' ')}`);
  const r = spawnSync(process.execPath, ['bin/ctx', '--store', store, ...args], { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
ctx('import', 'claude-code', 'fixtures/claude-code/compacted-session.jsonl', '-b', 'alice/auth-fix');
ctx('log', 'alice/auth-fix');
