// The README runs as written: every command it shows, each printing what it shows; it stays under 250
// lines and every link resolves. CTX_README_UPDATE=1 writes the printed output back into README.md.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers.js';

const README = join(ROOT, 'README.md');
const readme = readFileSync(README, 'utf8');
const SESSION = '3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83';
// the tour's user: outputs name this home, whatever temp dir the test ran in, and ctx installed globally
const SHOWN_HOME = '/home/alice';
const SHOWN_PATHS: [string, string][] = [[process.execPath, '/usr/bin/node'], [ROOT, '/usr/lib/node_modules/agent-ctx']];
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

interface Step { command: string; shown: string }
interface Block { text: string; steps: Step[] }

/** The ```console blocks: `$ command` lines, each followed by the output it prints. */
function consoleBlocks(md: string): Block[] {
  return [...md.matchAll(/^```console\n([^]*?)^```$/gm)].map((m) => {
    const steps: Step[] = [];
    for (const line of m[1].split('\n').slice(0, -1)) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), shown: '' });
      else steps.at(-1)!.shown += `${line}\n`;
    }
    return { text: m[1], steps };
  });
}

/** The environment every command of the tour runs in: a home of its own, a fixed identity and clock. */
function tourEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(CTX_|GIT_|CLAUDE_|CODEX_|GEMINI_|COPILOT_|PI_|XDG_)/.test(k)) env[k] = v;
  return {
    ...env,
    HOME: home,
    PATH: `${join(ROOT, 'bin')}:${dirname(process.execPath)}:${process.env.PATH}`,
    CTX_PRINCIPAL: 'alice',
    CTX_MACHINE: 'laptop',
    CTX_NOW: '2026-03-04T10:00:00.000Z',
    GIT_CONFIG_NOSYSTEM: '1',
    TZ: 'UTC',
    NO_COLOR: '1',
    CI: '1',
    LC_ALL: 'C.UTF-8',
  };
}

/** One command through bash, stdout and stderr as a terminal interleaves them; `cd` carries to the next. */
function runStep(command: string, cwdFile: string, env: NodeJS.ProcessEnv): { code: number | null; output: string } {
  const script = 'cd "$(cat "$CWD_FILE")" && { eval "$STEP"; } 2>&1; s=$?; pwd > "$CWD_FILE"; exit $s';
  const r = spawnSync('bash', ['-c', script], { env: { ...env, STEP: command, CWD_FILE: cwdFile }, encoding: 'utf8' });
  return { code: r.status, output: r.stdout };
}

/** `ctx serve` runs until stopped: its first line, on a free port (the shown one is the default, 7420). */
async function runServe(command: string, cwdFile: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  const p = spawn('bash', ['-c', `cd "$(cat "$CWD_FILE")" && exec ${command} --port 0 2>&1`], { env: { ...env, CWD_FILE: cwdFile } });
  const output = await new Promise<string>((done) => {
    let out = '';
    p.stdout.on('data', (b) => {
      out += b;
      if (out.includes('\n')) done(out);
    });
    p.on('close', () => done(out));
  });
  p.kill('SIGINT');
  return { code: 0, output: output.replace(/127\.0\.0\.1:\d+\//g, '127.0.0.1:7420/') };
}

describe('the tour', () => {
  it('runs every command the README shows, each printing exactly what it shows', async () => {
    const root = tempDir();
    const home = join(root, 'home');
    const sessions = join(home, '.claude', 'projects', '-home-alice-todo-cli');
    mkdirSync(sessions, { recursive: true });
    copyFileSync(join(ROOT, 'fixtures', 'claude-code', 'compacted-session.jsonl'), join(sessions, `${SESSION}.jsonl`));
    const cwdFile = join(root, 'cwd');
    writeFileSync(cwdFile, home);
    const env = tourEnv(home);
    const blocks = consoleBlocks(readme);
    expect(blocks.flatMap((b) => b.steps).length).toBeGreaterThanOrEqual(12);
    let updated = readme;
    for (const block of blocks) {
      let text = '';
      for (const step of block.steps) {
        const r = /^ctx serve\b/.test(step.command) ? await runServe(step.command, cwdFile, env) : runStep(step.command, cwdFile, env);
        const output = [[home, SHOWN_HOME], ...SHOWN_PATHS].reduce((o, [from, to]) => o.split(from).join(to), r.output);
        text += `$ ${step.command}\n${output}`;
        expect({ command: step.command, code: r.code }).toEqual({ command: step.command, code: 0 });
        // a new session's id is random: compared as a uuid, the README shows one the command printed
        if (!process.env.CTX_README_UPDATE) expect(output.replace(UUID, '<uuid>')).toBe(step.shown.replace(UUID, '<uuid>'));
      }
      updated = updated.replace(block.text, text);
    }
    if (process.env.CTX_README_UPDATE) writeFileSync(README, updated);
    // what the tour claims: the hooks are in the project's settings, the fork resumed in Codex, bob has the branches
    expect(JSON.parse(readFileSync(join(home, 'todo-cli', '.claude', 'settings.json'), 'utf8')).hooks.Stop[0].hooks[0].command).toMatch(/ctx hook claude-code/);
    expect(readdirSync(join(home, '.codex', 'sessions'), { recursive: true }).filter((f) => String(f).endsWith('.jsonl'))).toHaveLength(1);
    expect(existsSync(join(home, 'bob.ctx', 'refs', 'heads', 'review', 'blank-lines')) || readFileSync(join(home, 'bob.ctx', 'packed-refs'), 'utf8').includes('refs/heads/review/blank-lines')).toBe(true);
  }, 300_000);
});

it('npm run demo prints the log shown in the README', () => {
  const shown = /`npm run demo` writes[^]*?```\n([^]*?)```/.exec(readme)![1];
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CTX_')) env[k] = v;
  const r = spawnSync(process.execPath, ['bench/demo.mjs'], { cwd: ROOT, env, encoding: 'utf8' });
  rmSync(join(ROOT, '.ctx-demo'), { recursive: true, force: true });
  expect(r.status).toBe(0);
  // the README drops the trailing tab of an empty summary
  expect(r.stdout.replace(/\t\n/g, '\n')).toBe(shown);
});

it('the install and quick-start commands are the ones package.json and .ci/run have, and the build writes the declarations "exports" name', () => {
  const sh = [...readme.matchAll(/^```sh\n([^]*?)^```$/gm)].flatMap((m) => m[1].split('\n').filter(Boolean).map((l) => l.replace(/\s+#.*$/, '')));
  // npm i -g, npm ci and npm link change the machine: the test checks what they rely on instead of running them
  expect(sh).toEqual(['npm i -g agent-ctx', 'npm ci && npm run build && npm link', 'npm ci && npm run demo', 'npm test']);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  expect([pkg.name, pkg.bin.ctx, pkg.scripts.build, pkg.files.includes('dist')]).toEqual(['agent-ctx', 'bin/ctx', 'node build.mjs', true]);
  expect(pkg.scripts.demo).toMatch(/&& node bench\/demo\.mjs$/);
  expect(pkg.scripts.test).toMatch(/&& vitest run$/);
  expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toContain('\nnpm test ');
  // every "types" of package.json is the declaration of a file tsconfig.types.json emits (into dist/types)
  const emitted = JSON.parse(readFileSync(join(ROOT, 'tsconfig.types.json'), 'utf8')).files.map((f: string) => `./dist/types/${f.slice('src/'.length, -'.ts'.length)}.d.ts`);
  const types = [`./${pkg.types}`, ...Object.values(pkg.exports as Record<string, { types: string }>).map((e) => e.types)];
  expect([...new Set(types)].sort()).toEqual([...emitted].sort());
});

it('is a guide, not the manual: under 250 lines, and every link goes to a file that exists', () => {
  expect(readme.split('\n').length).toBeLessThan(250);
  const links = [...readme.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^https?:/.test(l));
  expect(links.length).toBeGreaterThanOrEqual(15);
  expect(links.filter((l) => !existsSync(join(ROOT, l)))).toEqual([]);
  // and the docs/ pages' own relative links
  const broken: string[] = [];
  for (const page of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
    for (const m of readFileSync(join(ROOT, 'docs', page), 'utf8').matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
      if (!/^[a-z]+:/.test(m[1]) && !existsSync(join(ROOT, 'docs', m[1]))) broken.push(`${page}: ${m[1]}`);
    }
  }
  expect(broken).toEqual([]);
});
