// The README's quick start prints exactly what the README shows.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, ctx, newStore } from './helpers.js';

it('npm run demo prints the log shown in the README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const shown = /`npm run demo` writes[^]*?```\n([^]*?)```/.exec(readme)![1];
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CTX_')) env[k] = v;
  const r = spawnSync(process.execPath, ['bench/demo.mjs'], { cwd: ROOT, env, encoding: 'utf8' });
  rmSync(join(ROOT, '.ctx-demo'), { recursive: true, force: true });
  expect(r.status).toBe(0);
  // the README drops the trailing tab of an empty summary
  expect(r.stdout.replace(/\t\n/g, '\n')).toBe(shown);
});

it("the tour's commands name commits a user's store has: branches and NAME~N, not the demo's ids", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const tour = /## A tour\n+```\n([^]*?)```/.exec(readme)![1];
  expect(tour.match(/ctx-[0-9a-f]{4,}/g) ?? []).toEqual([]);
  // run them on a store of someone else's import of the same session: other ids, same names
  const store = newStore();
  const env = { CTX_PRINCIPAL: 'bob', CTX_MACHINE: 'desk', CTX_NOW: '2026-05-06T07:08:09.000Z' };
  expect(ctx(store, ['import', 'claude-code', join(ROOT, 'fixtures', 'claude-code', 'compacted-session.jsonl'), '-b', 'alice/auth-fix'], { env }).code).toBe(0);
  const commands = tour.split('\n').filter((l) => /^ctx (show|fork|annotate) /.test(l));
  expect(commands).toHaveLength(6);
  for (const command of commands) {
    const args = [...command.replace(/\s+#.*$/, '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]).slice(1);
    const r = ctx(store, args, { env });
    expect([command, r.code, r.stderr]).toEqual([command, 0, '']);
  }
});
