// The MCP SDK is an optional peer dependency: without it `ctx mcp` is one error line naming the
// fix (exit 1) and everything else runs; with it, only `ctx mcp`'s chunks import it.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXED_ENV, ROOT, ctx, newStore } from './helpers.js';

/** Every file `entry` loads without an `import()`. */
function staticClosure(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const m of readFileSync(entry, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\s*(?:[^'"()]*?\bfrom\s*)?["'](\.[^"']+)["']/g)) staticClosure(join(entry, '..', m[1]), seen);
  return seen;
}
const mentions = (files: Iterable<string>, needle: string) => [...files].filter((f) => readFileSync(f, 'utf8').includes(needle));

describe('ctx mcp without @modelcontextprotocol/sdk', () => {
  let pkg: string;
  let store: string;
  const run = (args: string[]) => {
    const r = spawnSync(process.execPath, [join(pkg, 'bin', 'ctx'), ...args], { env: { ...process.env, ...FIXED_ENV, CTX_STORE: store }, input: '' });
    return { code: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };
  beforeAll(() => {
    // agent-ctx installed as a user has it: its files, and node_modules with every package but the SDK
    pkg = mkdtempSync(join(tmpdir(), 'ctx-nosdk-'));
    for (const f of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, f), join(pkg, f), { recursive: true });
    mkdirSync(join(pkg, 'node_modules'));
    for (const name of readdirSync(join(ROOT, 'node_modules'))) if (name !== '@modelcontextprotocol') symlinkSync(join(ROOT, 'node_modules', name), join(pkg, 'node_modules', name));
    store = newStore();
  });
  afterAll(() => rmSync(pkg, { recursive: true, force: true }));

  it('ctx mcp exits 1 with one line naming the fix; --version, log and hook run', () => {
    expect(run(['mcp'])).toEqual({ code: 1, stdout: '', stderr: 'ctx: ctx mcp needs the optional package @modelcontextprotocol/sdk: npm install @modelcontextprotocol/sdk (beside agent-ctx)\n' });
    expect(run(['--version'])).toMatchObject({ code: 0, stderr: '' });
    expect(run(['log', '--all'])).toMatchObject({ code: 0, stderr: '' });
    expect(run(['hook', 'claude-code', '{}']).code).toBe(0);
    expect(ctx(store, ['--version']).stdout).toBe(run(['--version']).stdout);
  });

  it('in the bundle, only the chunks ctx mcp imports name the SDK or zod', () => {
    const dist = join(ROOT, 'dist');
    for (const entry of ['cli.cjs', 'hook.cjs', 'fast.cjs', 'search.cjs', 'main.js', 'index.js']) {
      const files = staticClosure(join(dist, entry));
      expect(mentions(files, '@modelcontextprotocol'), entry).toEqual([]);
      expect(mentions(files, '"zod"'), entry).toEqual([]);
    }
    const chunks = readdirSync(join(dist, 'chunks')).filter((f) => f.endsWith('.js')).map((f) => join(dist, 'chunks', f));
    expect(mentions(chunks, 'from "@modelcontextprotocol/').map((f) => readFileSync(f, 'utf8').includes('registerTool'))).toContain(true);
  });
});
