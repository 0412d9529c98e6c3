// Issue 21 proven with real runtimes: Claude Code, Codex and Gemini CLI, scripted through their mock
// model APIs, write and edit a file with their own file tools and commit it through their own shell
// tool in a throwaway repository with ctx's git hooks and the runtime's hooks installed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from './codex-cli.js';
import { ctx, tempDir } from './helpers.js';
import { AGENTS, DONE_TEXT, type Agent, type AgentKind, type Step } from './links-agents.js';

const GIT_ENV = { GIT_AUTHOR_NAME: 'Dana Dev', GIT_AUTHOR_EMAIL: 'dana@example.com', GIT_COMMITTER_NAME: 'Dana Dev', GIT_COMMITTER_EMAIL: 'dana@example.com' };
const TIMEOUT = 600_000;

/** Native git in a code repository (not the store). */
const sh = (cwd: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });

interface Project {
  root: string;
  store: string;
  repo: string;
  agent: Agent;
}

/** root/.ctx (the store), root/repo (a code repository with one commit), the runtime's hooks installed there. */
async function project(kind: AgentKind): Promise<Project> {
  const root = tempDir();
  const store = join(root, '.ctx');
  const repo = join(root, 'repo');
  mkdirSync(repo);
  sh(repo, ['init', '-q', '-b', 'main']);
  sh(repo, ['config', 'user.name', 'Dana Dev']);
  sh(repo, ['config', 'user.email', 'dana@example.com']);
  // the runtimes' project settings are not the project's code
  writeFileSync(join(repo, '.git', 'info', 'exclude'), '.claude/\n.gemini/\n');
  writeFileSync(join(repo, 'README.md'), '# demo\n');
  sh(repo, ['add', 'README.md']);
  sh(repo, ['commit', '-q', '-m', 'Start']);
  expect(ctx(store, ['init', store]).code).toBe(0);
  const agent = await kind.start(join(root, 'agent'));
  const installed = ctx(store, ['hooks', 'install', kind.runtime], { cwd: repo, env: { ...agent.env, CTX_STORE: undefined } });
  expect([installed.code, installed.stderr]).toEqual([0, expect.stringMatching(/^installed in /)]);
  return { root, store, repo, agent };
}

/** Write greet.txt, edit it, `git add` and `git commit` it: the change the agent is asked for. */
const greetSteps = (file: string, message: string): Step[] => [
  { write: file, content: 'hello\nfrom the agent\n' },
  { edit: file, old: 'from the agent', new: 'from the agent, edited' },
  { shell: `git add ${file} && git commit -q -m '${message}'` },
];

const branches = (store: string) => ctx(store, ['branch', '--json']).stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).name as string);

for (const kind of AGENTS) {
  const name = `${kind.runtime} commits through its own tools`;
  const suite = kind.missing === null ? describe : process.env.CI ? describe : describe.skip;
  suite(kind.missing === null || process.env.CI ? name : `${name} (skipped: ${kind.missing})`, () => {
    it('writes, edits and commits a file; its hooks capture the session with those tool calls', async () => {
      if (kind.missing !== null) throw new Error(`${kind.missing}; with CI set, the real-runtime link tests run instead of skipping`);
      const { store, repo, agent } = await project(kind);
      try {
        const prompt = `Please add greet.txt and commit it (${kind.runtime})`;
        const r = await agent.run(repo, prompt, greetSteps('greet.txt', 'Add greet.txt'));
        expect([r.code, r.stdout.trim()], r.stderr).toEqual([0, DONE_TEXT]);
        expect(agent.toolNames()).toHaveLength(3);
        expect(readFileSync(join(repo, 'greet.txt'), 'utf8')).toBe('hello\nfrom the agent, edited\n');
        expect(sh(repo, ['log', '--format=%s', '-2'])).toBe('Add greet.txt\nStart\n');
        expect(sh(repo, ['show', '--name-only', '--format=', 'HEAD'])).toBe('greet.txt\n');
        const [session] = agent.sessions();
        const branch = agent.branch(session.id);
        await eventually(() => existsSync(store) && branches(store).includes(branch), 60_000);
        const chain = () => ctx(store, ['materialize', branch, '--stop', 'root']).bytes;
        await eventually(() => chain().equals(readFileSync(session.file)), 60_000);
        const text = chain().toString('utf8');
        expect(text).toContain(prompt);
        expect(text).toContain('git commit -q -m');
      } finally {
        await agent.close();
      }
    }, TIMEOUT);
  });
}
