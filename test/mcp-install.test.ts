// `ctx mcp install|uninstall|status RUNTIME`: an entry named ctx running `ctx mcp` in each runtime's
// MCP configuration, written into an empty project, beside other servers (every other byte kept),
// into the user's files under a temp HOME, and taken out again; links and broken files are refused.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, ctx, tempDir } from './helpers.js';

const NODE = process.execPath;
const SERVER = [NODE, CTX, 'mcp'];
/** Each runtime's own home variables unset: the user's files are found from HOME alone. */
const CLEAN = { CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined, COPILOT_HOME: undefined, GEMINI_CLI_HOME: undefined, XDG_CONFIG_HOME: undefined };

function project() {
  const root = tempDir();
  const dir = join(root, 'project');
  const home = join(root, 'home');
  mkdirSync(join(dir, '.git'), { recursive: true });
  mkdirSync(home);
  const store = join(dir, '.ctx');
  const run = (...args: string[]) => ctx(store, ['mcp', ...args], { cwd: dir, env: { ...CLEAN, HOME: home } });
  return { dir, home, store, run };
}

const q = JSON.stringify;
/** The args array as JSON.stringify(…, null, 2) lays it out `depth` levels deep. */
const argsBlock = (args: string[], depth: number) => `[\n${args.map((a) => `${'  '.repeat(depth + 1)}${q(a)}`).join(',\n')}\n${'  '.repeat(depth)}]`;

/** What a fresh install writes, per runtime: the file's path in the project and under HOME, and its bytes. */
const FRESH: Record<string, { project: string; user: string; bytes: (argv: string[]) => string }> = {
  'claude-code': {
    project: '.mcp.json',
    user: '.claude.json',
    bytes: ([command, ...args]) => `{\n  "mcpServers": {\n    "ctx": {\n      "type": "stdio",\n      "command": ${q(command)},\n      "args": ${argsBlock(args, 3)}\n    }\n  }\n}\n`,
  },
  'gemini-cli': {
    project: '.gemini/settings.json',
    user: '.gemini/settings.json',
    bytes: ([command, ...args]) => `{\n  "mcpServers": {\n    "ctx": {\n      "command": ${q(command)},\n      "args": ${argsBlock(args, 3)}\n    }\n  }\n}\n`,
  },
  copilot: {
    project: '.github/mcp.json',
    user: '.copilot/mcp-config.json',
    bytes: ([command, ...args]) => `{\n  "mcpServers": {\n    "ctx": {\n      "type": "local",\n      "command": ${q(command)},\n      "args": ${argsBlock(args, 3)},\n      "tools": [\n        "*"\n      ]\n    }\n  }\n}\n`,
  },
  opencode: {
    project: 'opencode.json',
    user: '.config/opencode/opencode.json',
    bytes: (argv) => `{\n  "mcp": {\n    "ctx": {\n      "type": "local",\n      "command": ${argsBlock(argv, 3)},\n      "enabled": true\n    }\n  }\n}\n`,
  },
  codex: {
    project: '.codex/config.toml',
    user: '.codex/config.toml',
    bytes: ([command, ...args]) => `[mcp_servers.ctx]\ncommand = ${q(command)}\nargs = ${q(args)}\n`,
  },
};

describe('ctx mcp install|uninstall|status', () => {
  for (const [runtime, f] of Object.entries(FRESH)) {
    it(`${runtime}: writes ${f.project} in an empty project, again changes nothing, status and --json say so, uninstall removes the file it made`, () => {
      const { dir, run } = project();
      const file = join(dir, f.project);
      const install = run('install', runtime);
      expect(install.code).toBe(0);
      expect(install.stdout).toBe(`ctx\t${SERVER.join(' ')}\n`);
      const notes = install.stderr.split('\n');
      expect([notes[0], notes[2], notes[3]]).toEqual([`ctx mcp registered in ${file}`, `no store at ${join(dir, '.ctx')} yet: ctx mcp starts once there is one (ctx init, or the hooks' first capture)`, '']);
      expect(readFileSync(file, 'utf8')).toBe(f.bytes(SERVER));

      const again = run('install', runtime);
      expect(again.code).toBe(0);
      expect(again.stderr.split('\n')[0]).toBe(`${file}: nothing to change`);
      expect(readFileSync(file, 'utf8')).toBe(f.bytes(SERVER));

      expect(run('status', runtime)).toMatchObject({ code: 0, stdout: `ctx\t${SERVER.join(' ')}\n` });
      const json = JSON.parse(run('status', runtime, '--json').stdout);
      expect(Object.keys(json).sort().join(' ')).toBe('action changed command covers installed path v');
      expect(json).toMatchObject({ v: 1, action: 'status', path: file, changed: false, installed: true, command: SERVER });

      expect(run('uninstall', runtime)).toMatchObject({ code: 0, stdout: 'ctx\t-\n', stderr: `ctx mcp removed from ${file}\n` });
      expect(existsSync(file)).toBe(false);
      expect(run('uninstall', runtime)).toMatchObject({ code: 0, stderr: `${file}: nothing to change\n` });
      expect(JSON.parse(run('status', runtime, '--json').stdout)).toMatchObject({ installed: false, command: null });
    });

    it(`${runtime}: --user writes ~/${f.user} under HOME; --write and --store go into the command line, and a new install updates the entry`, () => {
      const { dir, home, run } = project();
      const file = join(home, f.user);
      expect(run('install', runtime, '--user').code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(f.bytes(SERVER));
      const store = join(dir, 'elsewhere');
      const writing = [...SERVER, '--store', store, '--write'];
      const r = run('install', runtime, '--user', '--write', '--store', 'elsewhere');
      expect(r).toMatchObject({ code: 0, stdout: `ctx\t${writing.join(' ')}\n` });
      expect(readFileSync(file, 'utf8')).toBe(f.bytes(writing));
      expect(existsSync(join(dir, f.project))).toBe(false);
      expect(run('uninstall', runtime, '--user').code).toBe(0);
      expect(existsSync(file)).toBe(false);
    });
  }

  /** Configurations holding other servers and settings, and what an install makes of them: ctx's entry added, every other byte kept. */
  const EXISTING: [string, string, string, (argv: string[]) => string][] = [
    [
      'claude-code',
      '.mcp.json',
      '{\n  "mcpServers": {\n    "other": { "command": "x", "args": ["y"] }\n  },\n  "n": 12345678901234567890\n}\n',
      ([command, ...args]) =>
        `{\n  "mcpServers": {\n    "other": { "command": "x", "args": ["y"] },\n    "ctx": {\n      "type": "stdio",\n      "command": ${q(command)},\n      "args": ${argsBlock(args, 3)}\n    }\n  },\n  "n": 12345678901234567890\n}\n`,
    ],
    [
      'gemini-cli',
      '.gemini/settings.json',
      '{\n\t// mine\n\t"model": { "name": "gemini-2.5-pro" }\n}\n',
      ([command, ...args]) => `{\n\t// mine\n\t"model": { "name": "gemini-2.5-pro" },\n\t"mcpServers": {\n\t\t"ctx": {\n\t\t\t"command": ${q(command)},\n\t\t\t"args": [\n${args.map((a) => `\t\t\t\t${q(a)}`).join(',\n')}\n\t\t\t]\n\t\t}\n\t}\n}\n`,
    ],
    [
      'opencode',
      'opencode.jsonc',
      '{\n  "$schema": "https://opencode.ai/config.json",\n  "mcp": {\n    "docs": { "type": "remote", "url": "https://docs.example" }, // theirs\n  },\n}\n',
      // opencode reads comments and trailing commas; jsonc-parser inserts before the comment that ended the last entry
      (argv) => `{\n  "$schema": "https://opencode.ai/config.json",\n  "mcp": {\n    "docs": { "type": "remote", "url": "https://docs.example" },\n    "ctx": {\n      "type": "local",\n      "command": ${argsBlock(argv, 3)},\n      "enabled": true\n    }, // theirs\n  },\n}\n`,
    ],
    [
      'codex',
      '.codex/config.toml',
      'model = "o3"   # fast\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n\n[profiles.deep]\nmodel = "o3-pro"\n',
      ([command, ...args]) => `model = "o3"   # fast\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n\n[profiles.deep]\nmodel = "o3-pro"\n\n[mcp_servers.ctx]\ncommand = ${q(command)}\nargs = ${q(args)}\n`,
    ],
  ];
  for (const [runtime, name, before, after] of EXISTING) {
    it(`${runtime}: adds ctx's entry to an existing ${name} keeping every other byte; uninstall gives the original bytes back`, () => {
      const { dir, run } = project();
      const file = join(dir, name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, before);
      expect(run('install', runtime).code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(after(SERVER));
      expect(run('uninstall', runtime).code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(before);
    });
  }

  it('refuses a configuration that is a symbolic link, one that does not parse, and an entry named ctx that runs something else: one line, exit 1, nothing written', () => {
    const { dir, run } = project();
    const target = join(dir, 'elsewhere.json');
    writeFileSync(target, '{}\n');
    symlinkSync(target, join(dir, '.mcp.json'));
    const linked = run('install', 'claude-code');
    expect(linked).toMatchObject({ code: 1, stdout: '', stderr: `ctx: ${join(dir, '.mcp.json')} is a symbolic link: ctx does not write through it; add the entry by hand or replace the link with a file; nothing changed\n` });
    expect(readFileSync(target, 'utf8')).toBe('{}\n');

    mkdirSync(join(dir, '.gemini'));
    writeFileSync(join(dir, '.gemini', 'settings.json'), '{"mcpServers": [');
    const broken = run('install', 'gemini-cli');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toBe(`ctx: ${join(dir, '.gemini', 'settings.json')} is not JSON (CloseBracketExpected at line 1 column 17); nothing changed\n`);
    expect(readFileSync(join(dir, '.gemini', 'settings.json'), 'utf8')).toBe('{"mcpServers": [');

    mkdirSync(join(dir, '.codex'));
    writeFileSync(join(dir, '.codex', 'config.toml'), 'model = \n');
    const toml = run('install', 'codex');
    expect(toml.code).toBe(1);
    expect(toml.stderr).toMatch(/^ctx: .*\/\.codex\/config\.toml: not TOML \(line 1, column \d+: .*\); nothing changed\n$/);

    const foreign = '{"mcp": {"ctx": {"type": "local", "command": ["other-tool", "serve"]}}}\n';
    writeFileSync(join(dir, 'opencode.json'), foreign);
    expect(run('install', 'opencode')).toMatchObject({ code: 1, stderr: `ctx: ${join(dir, 'opencode.json')}: an MCP server named ctx is there and does not run ctx mcp: rename or remove it to install ctx's; nothing changed\n` });
    expect(run('uninstall', 'opencode').code).toBe(0);
    expect(readFileSync(join(dir, 'opencode.json'), 'utf8')).toBe(foreign);
    expect(run('status', 'opencode')).toMatchObject({ code: 0, stdout: 'ctx\t-\n' });
  });

  it('--agent goes into the command line; a missing runtime and --session (one server\'s calling session) are usage errors, nothing written', () => {
    const { dir, run } = project();
    expect(run('install', 'gemini-cli', '--agent', 'planner')).toMatchObject({ code: 0, stdout: `ctx\t${[...SERVER, '--agent', 'planner'].join(' ')}\n` });
    expect(run('status')).toMatchObject({ code: 2, stderr: 'ctx: ctx mcp status needs a runtime: claude-code, codex, gemini-cli, opencode, copilot\n' });
    expect(run('install', 'claude-code', '--session', 's-1')).toMatchObject({
      code: 2,
      stderr: 'ctx: --session names the calling session of one server: ctx mcp install takes none (each server finds its session)\n',
    });
    expect(existsSync(join(dir, '.mcp.json'))).toBe(false);
    // Claude Code's user configuration follows $CLAUDE_CONFIG_DIR
    const config = join(dir, 'claude-config');
    expect(ctx(join(dir, '.ctx'), ['mcp', 'install', 'claude-code', '--user'], { cwd: dir, env: { ...CLEAN, CLAUDE_CONFIG_DIR: config } }).code).toBe(0);
    expect(readFileSync(join(config, '.claude.json'), 'utf8')).toBe(FRESH['claude-code'].bytes(SERVER));
  });

  it('pi reads no MCP configuration: install says so in one line, exits 2 and writes nothing', () => {
    const { dir, run } = project();
    expect(run('install', 'pi')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'ctx: pi reads no MCP configuration, so ctx cannot register its server there (ctx mcp install takes claude-code, codex, gemini-cli, opencode, copilot)\n',
    });
    expect(existsSync(join(dir, '.pi'))).toBe(false);
  });

  it('ctx hooks install claude-code --mcp writes the hooks and the server; --json holds both records; uninstall --mcp removes both; pi --mcp is refused before its hooks are written', () => {
    const { dir, home, store } = project();
    const hooks = (...args: string[]) => ctx(store, ['hooks', ...args], { cwd: dir, env: { ...CLEAN, HOME: home } });
    const r = hooks('install', 'claude-code', '--mcp', '--json');
    expect(r.code).toBe(0);
    const record = JSON.parse(r.stdout);
    expect(record.installed).toBe(true);
    expect(record.mcp).toMatchObject({ v: 1, action: 'install', path: join(dir, '.mcp.json'), changed: true, installed: true, command: SERVER });
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(FRESH['claude-code'].bytes(SERVER));
    expect(existsSync(join(dir, '.claude', 'settings.json'))).toBe(true);
    expect(hooks('uninstall', 'claude-code', '--mcp').code).toBe(0);
    expect(existsSync(join(dir, '.mcp.json'))).toBe(false);
    expect(existsSync(join(dir, '.claude', 'settings.json'))).toBe(false);

    expect(hooks('install', 'pi', '--mcp').code).toBe(2);
    expect(existsSync(join(dir, '.pi'))).toBe(false);
    expect(hooks('install', 'git', '--mcp')).toMatchObject({ code: 2, stderr: "ctx: --mcp is for a runtime's settings: git hooks are installed in the repository at hand\n" });
  });
});
