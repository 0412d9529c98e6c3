// Issue 21 proven with real runtimes: Claude Code, Codex and Gemini CLI, scripted through their mock
// model APIs, write and edit a file with their own file tools and commit it through their own shell
// tool in a throwaway repository with ctx's git hooks and the runtime's hooks installed; then the
// commit survives amend, rebase -i with a squash, cherry-pick and a squash merge, and two agents in two
// worktrees of one repository each link only their own commit. Every runtime commits in one turn and
// in a second turn; each history edit runs on one runtime (EDITED_ON), as they are git's and ctx's
// hooks' work, not the runtime's: CTX_LINKS_ALL=1 runs each on every runtime.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from './codex-cli.js';
import { ctx, tempDir } from './helpers.js';
import { AGENTS, DONE_TEXT, type Agent, type AgentKind, type Step } from './links-agents.js';

const IDENTITY = { GIT_AUTHOR_NAME: 'Dana Dev', GIT_AUTHOR_EMAIL: 'dana@example.com', GIT_COMMITTER_NAME: 'Dana Dev', GIT_COMMITTER_EMAIL: 'dana@example.com' };
const TIMEOUT = 900_000;
const FILE = 'greet.txt';
const HAND_LINE = 'written by hand';

/** The environment without ctx's variables (the hooks find the store by walking up) and with an identity. */
function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CTX_') && !k.startsWith('GIT_')) env[k] = v;
  return { ...env, ...IDENTITY, ...extra };
}

/** Native git in a code repository (not the store), as a person runs it. */
const sh = (cwd: string, args: string[], env: Record<string, string> = {}) => execFileSync('git', args, { cwd, encoding: 'utf8', env: gitEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });

interface Project {
  root: string;
  store: string;
  repo: string;
  agent: Agent;
}

/** Installs the runtime's hooks in `dir` (a worktree): project-level where the runtime has it. */
function installRuntimeHooks(store: string, agent: Agent, dir: string) {
  const r = ctx(store, ['hooks', 'install', agent.runtime], { cwd: dir, env: { ...agent.env, CTX_STORE: undefined } });
  expect([r.code, r.stderr], r.stderr).toEqual([0, expect.stringMatching(/^installed in |: nothing to change\n$/)]);
}

/** root/.ctx (the store), root/repo (a code repository with one commit), the runtime's hooks installed there. */
async function project(kind: AgentKind): Promise<Project> {
  const root = tempDir();
  const store = join(root, '.ctx');
  const repo = join(root, 'repo');
  mkdirSync(repo);
  sh(repo, ['init', '-q', '-b', 'main']);
  // the agents' shell tools run git with their own environment: the identity is the repository's
  sh(repo, ['config', 'user.name', 'Dana Dev']);
  sh(repo, ['config', 'user.email', 'dana@example.com']);
  // the runtimes' project settings are not the project's code
  writeFileSync(join(repo, '.git', 'info', 'exclude'), '.claude/\n.gemini/\n');
  writeFileSync(join(repo, 'README.md'), '# demo\n');
  sh(repo, ['add', 'README.md']);
  sh(repo, ['commit', '-q', '-m', 'Start']);
  expect(ctx(store, ['init', store]).code).toBe(0);
  const hooks = ctx(store, ['hooks', 'install', 'git'], { cwd: repo, env: { CTX_STORE: undefined } });
  expect([hooks.code, hooks.stderr], hooks.stderr).toEqual([0, expect.stringMatching(/^installed in /)]);
  const agent = await kind.start(join(root, 'agent'));
  installRuntimeHooks(store, agent, repo);
  return { root, store, repo, agent };
}

/** The lines the agent leaves in FILE: `who` tells two agents' lines apart (the same lines would match either). */
const agentLines = (who: string) => [`hello from ${who}`, `${who} was here, edited`];

/** Write the file, edit it, `git add` and `git commit` it: the change the agent is asked for. */
const greetSteps = (file: string, message: string, who: string): Step[] => [
  { write: file, content: `hello from ${who}\n${who} was here\n` },
  { edit: file, old: `${who} was here`, new: `${who} was here, edited` },
  { shell: `git add ${file} && git commit -q -m '${message}'` },
];

const branches = (store: string) => ctx(store, ['branch', '--json']).stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).name as string);

interface Done {
  /** the session id and the store branch it is captured on */
  session: string;
  branch: string;
  prompt: string;
  /** the lines the agent wrote */
  lines: string[];
}

/** The session a turn started, once its hooks have captured all of its file into the store. */
async function captured(p: Project, before: Set<string>, prompt: string): Promise<{ session: string; file: string; branch: string }> {
  const fresh = p.agent.sessions().filter((s) => !before.has(s.id) && readFileSync(s.file, 'utf8').includes(prompt));
  expect(fresh).toHaveLength(1);
  const [{ id: session, file }] = fresh;
  const branch = p.agent.branch(session);
  // Codex runs its notify program after the turn, without waiting for it: the capture lands shortly after
  await eventually(() => existsSync(p.store) && branches(p.store).includes(branch), 120_000);
  const chain = () => ctx(p.store, ['materialize', branch, '--stop', 'root']).bytes;
  await eventually(() => chain().equals(readFileSync(file)), 120_000);
  return { session, file, branch };
}

/**
 * The agent, in `cwd`, asked by `prompt`: writes FILE, edits it and commits it through its shell tool;
 * in one turn, or (`turns` 2) writing in the first and committing in a second turn of the same session,
 * once the runtime's hooks have seen the session. Its session lands in the store.
 */
async function agentCommits(p: Project, cwd: string, prompt: string, turns: 1 | 2, who = 'the agent', message = 'Add greet.txt'): Promise<Done> {
  const before = new Set(p.agent.sessions().map((s) => s.id));
  const steps = greetSteps(FILE, message, who);
  const lines = agentLines(who);
  const first = await p.agent.run(cwd, prompt, turns === 1 ? steps : steps.slice(0, 2));
  expect([first.code, first.stdout.trim()], first.stderr).toEqual([0, DONE_TEXT]);
  expect(readFileSync(join(cwd, FILE), 'utf8')).toBe(`${lines.join('\n')}\n`);
  const s = await captured(p, before, prompt);
  if (turns === 2) {
    const commit = `Now commit ${FILE} (${s.session})`;
    const second = await p.agent.run(cwd, commit, steps.slice(2), s.session);
    expect([second.code, second.stdout.trim()], second.stderr).toEqual([0, DONE_TEXT]);
    expect(p.agent.sessions().map((x) => x.id)).toContain(s.session);
    const chain = () => ctx(p.store, ['materialize', s.branch, '--stop', 'root']).bytes;
    await eventually(() => chain().toString('utf8').includes(commit), 120_000);
  }
  expect(sh(cwd, ['log', '-1', '--format=%s'])).toBe(`${message}\n`);
  expect(sh(cwd, ['show', '--name-only', '--format=', 'HEAD'])).toBe(`${FILE}\n`);
  const text = ctx(p.store, ['materialize', s.branch, '--stop', 'root']).stdout;
  expect(text).toContain(prompt);
  expect(text).toContain(`git commit -q -m '${message}'`);
  return { session: s.session, branch: s.branch, prompt, lines };
}

/** A person adds a line to FILE and commits it. */
function handCommits(cwd: string) {
  appendFileSync(join(cwd, FILE), `${HAND_LINE}\n`);
  sh(cwd, ['commit', '-q', '-am', 'A line by hand']);
}

/** How a link is known: by a record or a verified trailer, or by the lines only (the trailers and records are gone). */
type Known = 'linked' | 'matched';

/** `ctx why` / `ctx blame` where the person is: in the worktree, the store found by walking up. */
const where = (p: Project, cwd: string, args: string[]) => ctx(p.store, args, { cwd, env: { CTX_STORE: undefined } });
const jsonLines = (text: string) => text.split('\n').filter(Boolean).map((l) => JSON.parse(l));

/**
 * What the issue asks after the agent's commit (REV) and a line by hand on top (HEAD): `ctx why REV`
 * names that session's context (its branch and session id) and shows the prompt; `ctx why HEAD` names
 * none; `ctx blame` gives the agent's lines to that session and the hand-written line to `human`.
 */
function expectLinked(p: Project, cwd: string, rev: string, done: Done, known: Known, handChecked = true) {
  expect(readFileSync(join(cwd, FILE), 'utf8')).toBe(`${[...done.lines, HAND_LINE].join('\n')}\n`);
  const why = where(p, cwd, ['why', rev, '--json']);
  const debug = `${sh(cwd, ['log', '--format=%h %s%n%b', '-4'])}\n${why.stdout}${why.stderr}`;
  expect(why.code, debug).toBe(0);
  const contexts = jsonLines(why.stdout);
  expect(contexts.map((c) => [c.session, c.branch, c.runtime]), debug).toEqual([[done.session, done.branch, p.agent.runtime]]);
  const [c] = contexts;
  expect(c.known, debug).toMatch(known === 'linked' ? /^(recorded|verified)$/ : /^matched$/);
  expect(c.code).toBe(sh(cwd, ['rev-parse', rev]).trim());
  expect(c.entries.filter((e: { kind: string }) => e.kind === 'prompt').map((e: { text: string }) => e.text)).toContain(done.prompt);
  expect(c.entries.filter((e: { kind: string; paths?: string[] }) => e.kind === 'tool' && e.paths?.includes(FILE)).length, debug).toBeGreaterThanOrEqual(2);

  if (handChecked) {
    expect(sh(cwd, ['log', '-1', '--format=%B'])).toBe('A line by hand\n\n');
    const hand = where(p, cwd, ['why', 'HEAD', '--json']);
    expect([hand.code, hand.stdout], hand.stderr).toEqual([0, '']);
  }

  const blame = where(p, cwd, ['blame', FILE, '--json']);
  expect(blame.code, blame.stderr).toBe(0);
  const lines = jsonLines(blame.stdout);
  expect(lines.map((l) => [l.line, l.text, l.how, l.session, l.branch, l.prompt]), blame.stdout).toEqual([
    [1, done.lines[0], known, done.session, done.branch, done.prompt],
    [2, done.lines[1], known, done.session, done.branch, done.prompt],
    [3, HAND_LINE, 'human', null, null, null],
  ]);
  expect(lines[0].context).toMatch(/^ctx-[0-9a-f]{40}$/);
  expect(lines.slice(0, 2).map((l) => l.code)).toEqual([c.code, c.code]);
}

/**
 * What a runtime with ctx's hooks cannot do yet: its test is skipped with the reason (none today;
 * CTX_TEST_GAPS=1 would run it). A first-turn commit is linked through the session id the runtime
 * puts in its shell's environment (Claude Code, Codex); Gemini CLI's shell runs git with no hook, so
 * its commits are matched by their lines.
 */
const CHECK_GAPS = process.env.CTX_TEST_GAPS === '1';
const FIRST_TURN_GAP: Record<Agent['runtime'], string | null> = { 'claude-code': null, codex: null, 'gemini-cli': null };
/** The runtime each history edit runs on: where it differs from the others (Gemini CLI's commits are linked only by a person's cherry-pick), or the slowest to capture (Codex's notify lands after the turn, two at once). */
type Edit = 'amend' | 'rebase' | 'cherry-pick' | 'squash-merge' | 'worktrees';
const EDITED_ON: Record<Edit, Agent['runtime']> = { amend: 'claude-code', 'squash-merge': 'claude-code', rebase: 'codex', worktrees: 'codex', 'cherry-pick': 'gemini-cli' };
const ALL_EDITS = process.env.CTX_LINKS_ALL === '1';
const skipFor = (reason: string) => (name: string, fn: () => Promise<void>, timeout: number) => it.skip(`${name} (skipped: ${reason}; CTX_TEST_GAPS=1 runs it)`, fn, timeout);

/** Skipped with the reason when the CLI cannot run here; under CI a missing CLI fails instead. */
function describeAgent(kind: AgentKind, fn: () => void) {
  const name = `${kind.runtime}: code commits lead back to the session that wrote them`;
  if (kind.missing === null) describe(name, fn);
  else if (process.env.CI) describe(name, () => it('runs the real CLI', () => expect.fail(`${kind.missing}; with CI set, the real-runtime link tests run instead of skipping`)));
  else describe.skip(`${name} (skipped: ${kind.missing})`, fn);
}

for (const kind of AGENTS) {
  describeAgent(kind, () => {
    /** A project, the agent's session in it, and the project's agent closed after `fn`. */
    const withProject = async (fn: (p: Project) => Promise<void>) => {
      const p = await project(kind);
      try {
        await fn(p);
      } finally {
        await p.agent.close();
        // LINKS_KEEP=DIR keeps each project (store, repositories, agent homes) for a look after the run
        if (process.env.LINKS_KEEP) cpSync(p.root, join(process.env.LINKS_KEEP, `${kind.runtime}-${basename(p.root)}`), { recursive: true });
      }
    };
    // Gemini CLI runs its shell commands with core.hooksPath="" (GIT_CONFIG_*): git runs no hook for them, so only the lines can tell
    const known: Known = kind.runtime === 'gemini-cli' ? 'matched' : 'linked';
    // the session stays unlinked, but a person's next commit of the file does not bear its lines out: it names nobody
    const handChecked = true;
    // the history edits start from a commit made in the session's second turn (see the report: a first turn's commit is not linked yet)
    const TURNS = 2;
    const ask = (what: string) => `Please add ${FILE} and commit it: ${what} (${kind.runtime})`;
    /** `it` for the history edits this runtime runs; the others are not declared (each is another runtime's) */
    const edit = (e: Edit) => (name: string, fn: () => Promise<void>, timeout: number) => void ((ALL_EDITS || EDITED_ON[e] === kind.runtime) && it(name, fn, timeout));

    for (const turns of [1, 2] as const)
      (turns === 1 && FIRST_TURN_GAP[kind.runtime] && !CHECK_GAPS ? skipFor(FIRST_TURN_GAP[kind.runtime]!) : it)(turns === 1 ? 'writes, edits and commits in one turn through its own tools; a line by hand after it is the person’s' : 'writes and edits in one turn, commits in the next turn of the session; a line by hand after it is the person’s', () =>
        withProject(async (p) => {
          const done = await agentCommits(p, p.repo, ask(`plain, in ${turns} turns`), turns);
          const trailers = sh(p.repo, ['log', '-1', '--format=%(trailers:key=Ctx-Context,key=Assisted-by)']);
          if (known === 'linked') expect(trailers).toMatch(new RegExp(`^Ctx-Context: ctx-[0-9a-f]{40}\nAssisted-by: ${kind.runtime}:\\S+\n\n$`));
          else expect(trailers).toBe('\n');
          handCommits(p.repo);
          expectLinked(p, p.repo, 'HEAD~1', done, known, handChecked);
        }), TIMEOUT);

    edit('amend')('after git commit --amend whose message drops the trailers', () =>
      withProject(async (p) => {
        const done = await agentCommits(p, p.repo, ask('then amended'), TURNS);
        sh(p.repo, ['commit', '-q', '--amend', '-m', 'Add greet.txt, amended']);
        handCommits(p.repo);
        expect(sh(p.repo, ['log', '--format=%s', '-3'])).toBe('A line by hand\nAdd greet.txt, amended\nStart\n');
        expectLinked(p, p.repo, 'HEAD~1', done, known, handChecked);
      }), TIMEOUT);

    edit('rebase')('after git rebase -i squashing a later commit into it', () =>
      withProject(async (p) => {
        const done = await agentCommits(p, p.repo, ask('then squashed'), TURNS);
        writeFileSync(join(p.repo, 'NOTES.md'), 'notes\n');
        sh(p.repo, ['add', 'NOTES.md']);
        sh(p.repo, ['commit', '-q', '-m', 'Notes']);
        // the second pick becomes a squash; the combined message is kept as git writes it
        sh(p.repo, ['rebase', '-q', '-i', 'HEAD~2'], { GIT_SEQUENCE_EDITOR: "sed -i -e '2s/^pick/squash/'", GIT_EDITOR: 'true' });
        expect(sh(p.repo, ['log', '--format=%s', '-2'])).toBe('Add greet.txt\nStart\n');
        expect(sh(p.repo, ['show', '--name-only', '--format=', 'HEAD'])).toBe(`NOTES.md\n${FILE}\n`);
        handCommits(p.repo);
        expectLinked(p, p.repo, 'HEAD~1', done, known, handChecked);
      }), TIMEOUT);

    edit('cherry-pick')('after a cherry-pick to another branch', () =>
      withProject(async (p) => {
        sh(p.repo, ['switch', '-q', '-c', 'feature']);
        const done = await agentCommits(p, p.repo, ask('on a feature branch, then cherry-picked'), TURNS);
        sh(p.repo, ['switch', '-q', 'main']);
        sh(p.repo, ['cherry-pick', 'feature']);
        expect(sh(p.repo, ['rev-parse', 'HEAD'])).not.toBe(sh(p.repo, ['rev-parse', 'feature']));
        handCommits(p.repo);
        // the person's cherry-pick runs the hooks: a session not linked yet (Gemini CLI's) is linked here
        expectLinked(p, p.repo, 'HEAD~1', done, 'linked', true);
      }), TIMEOUT);

    edit('squash-merge')('after a squash merge whose message drops the trailers', () =>
      withProject(async (p) => {
        sh(p.repo, ['switch', '-q', '-c', 'feature']);
        const done = await agentCommits(p, p.repo, ask('on a feature branch, then squash-merged'), TURNS);
        sh(p.repo, ['switch', '-q', 'main']);
        sh(p.repo, ['merge', '-q', '--squash', 'feature']);
        // as a forge squash-merges: on its server, where no hook of ours runs
        sh(p.repo, ['-c', `core.hooksPath=${join(p.root, 'no-hooks')}`, 'commit', '-q', '-m', 'Feature, squashed']);
        expect(sh(p.repo, ['log', '--format=%B', '-1'])).toBe('Feature, squashed\n\n');
        handCommits(p.repo);
        expectLinked(p, p.repo, 'HEAD~1', done, 'matched', handChecked);
      }), TIMEOUT);

    edit('worktrees')('two agents in two worktrees of one repository, committing at once: each commit names only its own', () =>
      withProject(async (p) => {
        const second = join(p.root, 'second');
        sh(p.repo, ['worktree', 'add', '-q', '-b', 'second', second]);
        installRuntimeHooks(p.store, p.agent, second);
        const [one, two] = await Promise.all([agentCommits(p, p.repo, ask('in the first worktree'), TURNS, 'the first agent'), agentCommits(p, second, ask('in the second worktree'), TURNS, 'the second agent')]);
        expect(one.session).not.toBe(two.session);
        handCommits(p.repo);
        handCommits(second);
        expectLinked(p, p.repo, 'HEAD~1', one, known, handChecked);
        expectLinked(p, second, 'HEAD~1', two, known, handChecked);
      }), TIMEOUT);
  });
}
