// Every command's --json record: its exact field list, "v":1 first, and stable values.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { FIXED_ENV, FIXTURES, ctx, newStore, tempDir } from './helpers.js';

const FIXTURE = join(FIXTURES, 'claude-code', 'compacted-session.jsonl');
const env = FIXED_ENV;
const json = (store: string, args: string[]) => {
  const r = ctx(store, [...args, '--json'], { env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
};
const META_FIELDS = [
  'artifact', 'artifact_size', 'checkpoint', 'created_at', 'format', 'machine', 'message_count',
  'principal', 'session_id', 'source', 'summary', 'template', 'token_count', 'type', 'v',
];

describe('--json records', () => {
  it('pin their field lists', () => {
    const dir = tempDir();
    const fresh = join(dir, 'new.ctx');
    expect(json(fresh, ['init', fresh])).toEqual([{ v: 1, path: fresh, created: true }]);
    const store = newStore();
    const [imported] = json(store, ['import', 'claude-code', FIXTURE, '-b', 'alice/auth-fix']);
    expect(imported).toEqual({ v: 1, branch: 'alice/auth-fix', session: '3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83', commits: 5, bytes: readFileSync(FIXTURE).length, id: 'ctx-e518d33a71725d0450cb94fddbbd14112c8be7e9' });

    const log = json(store, ['log', 'alice/auth-fix']);
    expect(log).toHaveLength(5);
    for (const r of log) expect(Object.keys(r)).toEqual(['v', 'id', 'parent', 'type', 'format', 'created_at', 'message_count', 'token_count', 'summary', 'branches', 'links']);
    expect(log[0].links).toEqual([]);
    expect(log.map((r) => r.type)).toEqual(['delta', 'delta', 'compaction', 'delta', 'delta']);
    expect(log[0]).toMatchObject({ v: 1, id: imported.id, parent: log[1].id, branches: ['alice/auth-fix'], summary: 'Thanks. Which files did you change?' });

    const [shown] = json(store, ['show', 'alice/auth-fix~3']);
    expect(Object.keys(shown)).toEqual(['v', 'id', 'parent', 'branches', 'summary', 'meta', 'annotations', 'links']);
    expect(Object.keys(shown.meta).sort()).toEqual(META_FIELDS);
    expect(shown.meta.source).toEqual({ file: 'compacted-session.jsonl', offset: 4459, length: 2798 });

    const line = '{"type":"user","message":{"role":"user","content":"go on"}}\n';
    const started = ctx(store, ['checkpoint', '-b', 'review/finding-1', '--format', 'claude-code-v1', '--parent', 'alice/auth-fix', '--json', '-'], { input: line, env });
    expect(JSON.parse(started.stdout)).toMatchObject({ branch: 'review/finding-1', parent: imported.id });
    const cpRun = ctx(store, ['checkpoint', '-b', 'review/x', '--format', 'claude-code-v1', '--json', '-'], { input: line, env });
    const written = JSON.parse(cpRun.stdout);
    expect(Object.keys(written)).toEqual(['v', 'id', 'branch', 'parent', 'type', 'format']);
    expect(written).toMatchObject({ v: 1, branch: 'review/x', parent: null, type: 'delta', format: 'claude-code-v1' });

    const [forked] = json(store, ['fork', 'alice/auth-fix~1', 'side']);
    expect(forked).toEqual({ v: 1, branch: 'side', id: log[1].id });
    const branches = json(store, ['branch']);
    expect(branches.map((b) => b.name)).toEqual(['alice/auth-fix', 'review/finding-1', 'review/x', 'side']);
    for (const b of branches) expect(Object.keys(b)).toEqual(['v', 'name', 'id', 'type', 'created_at', 'summary']);

    const [note] = json(store, ['annotate', 'side', '--summary', 'found the race']);
    expect(note).toEqual({ v: 1, at: FIXED_ENV.CTX_NOW, by: 'alice', summary: 'found the race', id: log[1].id });

    const [verified] = json(store, ['verify', '--all']);
    expect(verified).toEqual({ v: 1, ok: true, commits: 7, problems: [] });

    const [m] = json(store, ['materialize', 'alice/auth-fix', '--stop', 'root']);
    expect(Object.keys(m)).toEqual(['v', 'format', 'tier', 'stop', 'window', 'view', 'masked', 'commits', 'bytes', 'content']);
    expect(m).toMatchObject({ format: 'claude-code-v1', tier: 'native', stop: 'root', bytes: readFileSync(FIXTURE).length, content: readFileSync(FIXTURE, 'utf8') });
    expect(m.commits).toEqual([...log].reverse().map((r) => r.id));

    const [deleted] = json(store, ['branch', 'delete', 'side']);
    expect(deleted).toEqual({ v: 1, deleted: 'side', id: log[1].id });
  });

  it('every command that prints records pins its sorted field list', () => {
    const dir = tempDir();
    const store = newStore();
    const keys = (args: string[], opts: { env?: Record<string, string> } = {}) => {
      const r = ctx(store, [...args, '--json'], { env: { ...env, ...opts.env } });
      expect(r.code).toBe(0);
      return r.stdout.trimEnd().split('\n').map((l) => Object.keys(JSON.parse(l)).sort().join(' '));
    };
    const fresh = join(dir, 'fresh.ctx');
    expect(keys(['init', fresh])).toEqual(['created path v']);
    expect(keys(['import', 'claude-code', FIXTURE, '-b', 'alice/auth-fix'])).toEqual(['branch bytes commits id session v']);
    const line = '{"type":"user","message":{"role":"user","content":"go on"}}\n';
    // no summary: what summarize --missing below writes one for
    const cp = ctx(store, ['checkpoint', '-b', 'review/x', '--format', 'claude-code-v1', '--summary', '', '--json', '-'], { input: line, env });
    expect(Object.keys(JSON.parse(cp.stdout)).sort()).toEqual(['branch', 'format', 'id', 'parent', 'type', 'v']);
    expect(new Set(keys(['log', 'alice/auth-fix']))).toEqual(new Set(['branches created_at format id links message_count parent summary token_count type v']));
    expect(keys(['show', 'alice/auth-fix'])).toEqual(['annotations branches id links meta parent summary v']);
    expect(keys(['show', 'alice/auth-fix', '--messages'])).toEqual(['commits format id messages v']);
    // ctx why: a code commit whose trailer names the imported context (which never touched it: claimed)
    const code = join(dir, 'code');
    const tip = JSON.parse(ctx(store, ['show', 'alice/auth-fix', '--json'], { env }).stdout).id;
    execFileSync('git', ['init', '-q', code]);
    execFileSync('git', ['-C', code, '-c', 'user.name=A', '-c', 'user.email=a@b', 'commit', '-q', '--allow-empty', '-m', `x\n\nCtx-Context: ${tip}`]);
    expect(keys(['why', 'HEAD', '--repo', code])).toEqual(['author branch code context entries files in_store known lines model principal record runtime session since total v via']);
    // ctx blame: a line nobody's session wrote
    writeFileSync(join(code, 'a.txt'), 'written by a person\n');
    execFileSync('git', ['-C', code, 'add', 'a.txt']);
    execFileSync('git', ['-C', code, '-c', 'user.name=A', '-c', 'user.email=a@b', 'commit', '-q', '-m', 'a']);
    expect(keys(['blame', join(code, 'a.txt')])).toEqual(['author author_mail author_time branch code context entry how line original_line path prompt session text tool tool_path v']);
    expect(keys(['fork', 'alice/auth-fix~1', 'side'])).toEqual(['branch id v']);
    expect(new Set(keys(['branch']))).toEqual(new Set(['created_at id name summary type v']));
    expect(keys(['branch', 'delete', 'side'])).toEqual(['deleted id v']);
    expect(keys(['annotate', 'alice/auth-fix', '--summary', 'found it'])).toEqual(['at by id summary v']);
    expect(keys(['annotate', 'alice/auth-fix', '--pin', '--label', 'a', 'b'])).toEqual(['at by id labels pinned v']);
    expect(keys(['verify', '--all'])).toEqual(['commits ok problems v']);
    expect(keys(['index', 'rebuild'])).toEqual(['bytes commits current exists path refs v']);
    expect(keys(['materialize', 'alice/auth-fix'])).toEqual(['bytes commits content format masked stop tier v view window']);
    expect(keys(['materialize', 'alice/auth-fix', '-o', join(dir, 'm.jsonl')])).toEqual(['bytes commits format masked stop tier v view window']);
    expect(keys(['budget', 'alice/auth-fix', '--window', '100000', '--chars'])).toEqual(['available over ratio remaining reserved_output reserved_system threshold used v window']);
    expect(keys(['compact', 'alice/auth-fix', '--policy', 'dedupe'])).toEqual([
      'branch caught_up compacted format id messages_after messages_before parent stages tokens_after tokens_before v',
    ]);
    expect(new Set(keys(['summarize', 'review/x', '--missing', '--command', 'head -c 5']))).toEqual(new Set(['id status summary v']));
    const failed = ctx(store, ['summarize', 'alice/auth-fix~1', '--command', 'false', '--json'], { env });
    expect(failed.code).toBe(1);
    expect(new Set(failed.stdout.trimEnd().split('\n').map((l) => Object.keys(JSON.parse(l)).sort().join(' ')))).toEqual(new Set(['error id status v']));
    const claude = { CLAUDE_CONFIG_DIR: join(dir, 'claude') };
    expect(keys(['hooks', 'status', 'claude-code', '--user'], { env: claude })).toEqual(['action changed covers events installed path v']);
    expect(keys(['hooks', 'install', 'claude-code', '--user'], { env: claude })).toEqual(['action changed covers events installed path v']);
    expect(keys(['mcp', 'status', 'claude-code', '--user'], { env: claude })).toEqual(['action changed command covers installed path v']);
    expect(keys(['mcp', 'install', 'claude-code', '--user'], { env: claude })).toEqual(['action changed command covers installed path v']);
    expect(keys(['hooks', 'status', 'claude-code', '--user', '--mcp'], { env: claude })).toEqual(['action changed covers events installed mcp path v']);
    const hooked = join(dir, 'hooked');
    execFileSync('git', ['init', '-q', hooked]);
    const gitHooks = ctx(store, ['hooks', 'install', 'git', '--json'], { cwd: hooked, env });
    expect(Object.keys(JSON.parse(gitHooks.stdout)).sort().join(' ')).toBe('action changed hooks installed path v');
    // runtimes from outside: fixtures/runtimes on PATH
    const runtimes = { PATH: `${join(FIXTURES, 'runtimes')}:${process.env.PATH}` };
    expect(new Set(keys(['runtime', 'list'], { env: runtimes }))).toEqual(new Set(['capabilities name source title v', 'name path source used v']));
    // `runtime check --json` is pinned whole in test/runtime-protocol.test.ts
    expect(keys(['export', 'claude-code', 'alice/auth-fix', '--dir', join(dir, 'out'), '--session-id', '3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a80'])).toEqual(['branch command path session_id v']);

    // the commands of context in time and among agents
    expect(keys(['resolve', '--principal', 'alice', '--at', '2030-01-01T00:00:00Z'])).toEqual(['at created_at id principal v']);
    expect(keys(['current', '--session', JSON.parse(ctx(store, ['show', 'alice/auth-fix', '--json'], { env }).stdout).meta.session_id])).toEqual(['branch branches created_at id v']);
    const SAVE = 'branch by description format id message_count name saved_at summary token_count v window';
    expect(keys(['save', 'alice/auth-fix', '-m', 'before', '--name', 'save/one'])).toEqual([SAVE]);
    expect(keys(['sessions'])).toEqual([SAVE]);
    expect(keys(['restore', 'save/one'])).toEqual(['branch format id message_count name parent saved v']);
    expect(keys(['clear', 'alice/auth-fix'])).toEqual(['branch caught_up cleared format id messages_before parent tokens_before v']);
    expect(ctx(store, ['checkpoint', '-b', 'alice/auth-fix', '--format', 'claude-code-v1', '--thread', 't1', '--author', 'planner', '-'], { input: line, env }).code).toBe(0);
    expect(keys(['threads', 'alice/auth-fix'])).toEqual(['author commits created_at id summary thread v']);
    expect(keys(['cursor', 'set', 'alice/auth-fix', 'coder'])).toEqual(['agent at branch id v']);
    expect(keys(['cursor', 'show', 'alice/auth-fix', 'coder'])).toEqual(['agent at branch id v']);
    expect(keys(['snapshot', 'alice/auth-fix'])).toEqual(['branch format id parent type v']);
    // structured state
    const WRITE = 'agent branch diff id keys op v';
    expect(keys(['state', 'init', 'room'])).toEqual([WRITE]);
    expect(keys(['state', 'set', 'room', 'llm.provider', 'openai', '--as', 'inference'])).toEqual([WRITE]);
    expect(keys(['state', 'get', 'room', 'llm.provider'])).toEqual(['key v value']);
    expect(keys(['policy', 'set', 'room', 'reviewer', 'diagnostics', '--as', 'orchestrator'])).toEqual([WRITE]);
    expect(keys(['policy', 'show', 'room'])).toEqual(['agents id v']);
    expect(keys(['diff', 'room~2', 'room'])).toEqual(['from namespaces to v']);
    expect(new Set(keys(['audit', 'room']))).toEqual(new Set(['agent created_at diff id keys op principal schema v']));
    expect(keys(['stats', 'room'])).toEqual(['arrays externalized id limits namespaces schema total v']);
    expect(new Set(keys(['grep', 'go on']))).toEqual(new Set(['at branch commit entry role snippet v']));
    expect(new Set(keys(['files', 'src/list.ts']))).toEqual(new Set(['action at branch commit entry path session tool v']));
    expect(new Set(keys(['usage', '--by', 'model']))).toEqual(new Set(['by cache_read_tokens cache_write_tokens cost_usd input_tokens key output_tokens responses unpriced_models v']));
    const sessions = join(dir, 'sessions');
    mkdirSync(sessions);
    copyFileSync(FIXTURE, join(sessions, 'a.jsonl'));
    expect(keys(['import', 'claude-code', sessions])).toEqual(['branch bytes commits file id session unchanged v']);

    const remote = join(dir, 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', remote]);
    expect(keys(['remote', 'add', 'origin', remote])).toEqual(['name url v']);
    expect(keys(['remote'])).toEqual(['name url v']);
    const REF = 'diverged local new ok old ref remote status v';
    for (const verb of ['push', 'fetch', 'pull']) expect(new Set(keys([verb]))).toEqual(new Set([REF]));
    expect(keys(['clone', remote, join(dir, 'cloned.ctx')])).toEqual(['branches filter path remote tags url v']);
    // -a: the same records as branch, remote-tracking ones named remotes/origin/NAME
    const all = ctx(store, ['branch', '-a', '--json'], { env }).stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(all.filter((b) => b.name.startsWith('remotes/origin/')).length).toBeGreaterThan(0);
    for (const b of all) expect(Object.keys(b).filter((k) => k !== 'title').sort().join(' ')).toBe('created_at id name summary type v');
    expect(keys(['remote', 'remove', 'origin'])).toEqual(['removed url v']);
    // some sixty ctx processes one after another: minutes on a loaded 2-core machine
  }, 300_000);

  it('report errors as a JSON record on stderr with the exit code', () => {
    const store = newStore();
    const r = ctx(store, ['show', 'ctx-abcd', '--json'], { env });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({ v: 1, error: 'NotFoundError', message: 'unknown commit: ctx-abcd', exit: 4 });
  });
});
