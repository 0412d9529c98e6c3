// The README's quick start prints exactly what the README shows.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './helpers.js';

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
