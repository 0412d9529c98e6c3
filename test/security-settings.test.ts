// `ctx hooks install|uninstall|status` in a repository a stranger made: no write through a planted
// link, the settings file keeps its mode and its link, JSON numbers and comments are kept as written,
// and Codex's config.toml is parsed as TOML, not edited by line.
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, ctx, tempDir } from './helpers.js';
import { codexHookLines, codexTrust } from './codex-cli.js';

const RUNTIMES = [
  { runtime: 'claude-code', dir: '.claude' },
  { runtime: 'gemini-cli', dir: '.gemini' },
] as const;

const SETTINGS = '{\n  "model": "opus"\n}\n';

/** A cloned project with `<dir>/settings.json`, and a HOME of its own. */
function project(dir: string, settings = SETTINGS) {
  const home = tempDir();
  const root = tempDir();
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, dir));
  const file = join(root, dir, 'settings.json');
  writeFileSync(file, settings);
  return { home, root, file };
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe.each(RUNTIMES)('ctx hooks … $runtime in a hostile repository', ({ runtime, dir }) => {
  it('writes nothing through the planted .ctx-tmp and .ctx-backup links: a linked backup is refused', () => {
    const { home, root, file } = project(dir);
    writeFileSync(join(home, '.bashrc'), 'export PATH=/usr/bin\n');
    symlinkSync(join(home, '.bashrc'), `${file}.ctx-tmp`);
    symlinkSync(join(home, '.bash_profile'), `${file}.ctx-backup`);
    const run = (action: string) => ctx(join(root, '.ctx'), ['hooks', action, runtime], { cwd: root, env: { HOME: home } });

    const r = run('install');
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `ctx: ${file}.ctx-backup is a symbolic link, not a backup ctx made: remove it and run again; nothing changed\n`]);
    expect(readFileSync(join(home, '.bashrc'), 'utf8')).toBe('export PATH=/usr/bin\n');
    expect(existsSync(join(home, '.bash_profile'))).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(SETTINGS);
    expect(run('uninstall')).toMatchObject({ code: 1, stderr: `ctx: ${file}.ctx-backup is a symbolic link, not a backup ctx made: remove it and run again; nothing changed\n` });

    // the old fixed temp name is never opened: the link stays, its target untouched
    rmSync(`${file}.ctx-backup`);
    expect(run('install').code).toBe(0);
    expect(readFileSync(join(home, '.bashrc'), 'utf8')).toBe('export PATH=/usr/bin\n');
    expect(readlinkSync(`${file}.ctx-tmp`)).toBe(join(home, '.bashrc'));
    expect(lstatSync(file).isFile()).toBe(true);
    expect(readFileSync(`${file}.ctx-backup`, 'utf8')).toBe(SETTINGS);
  });

  it('keeps the mode of a chmod 600 settings file, and gives its backup the same', () => {
    const { home, root, file } = project(dir);
    chmodSync(file, 0o600);
    const run = (action: string) => ctx(join(root, '.ctx'), ['hooks', action, runtime], { cwd: root, env: { HOME: home } });
    expect(run('install').code).toBe(0);
    expect([mode(file), mode(`${file}.ctx-backup`)]).toEqual([0o600, 0o600]);
    expect(run('uninstall').code).toBe(0);
    expect([mode(file), readFileSync(file, 'utf8')]).toEqual([0o600, SETTINGS]);
  });

  it("edits a linked settings file through to its target, in the target's directory, and keeps the link", () => {
    const { home, root, file } = project(dir);
    const dotfiles = join(tempDir(), 'dotfiles');
    mkdirSync(dotfiles);
    const target = join(dotfiles, 'settings.json');
    writeFileSync(target, SETTINGS);
    chmodSync(target, 0o640);
    rmSync(file);
    symlinkSync(target, file);
    const run = (action: string) => ctx(join(root, '.ctx'), ['hooks', action, runtime], { cwd: root, env: { HOME: home } });

    expect(run('install').code).toBe(0);
    expect(readlinkSync(file)).toBe(target);
    expect(JSON.parse(readFileSync(target, 'utf8')).model).toBe('opus');
    expect(readFileSync(target, 'utf8')).toMatch(new RegExp(` hook ${runtime}"`));
    expect(mode(target)).toBe(0o640);
    expect(run('status').stdout).toMatch(new RegExp(`\\t\\S+ \\S+ hook ${runtime}\\n`));
    expect(run('uninstall').code).toBe(0);
    expect(readlinkSync(file)).toBe(target);
    expect(readFileSync(target, 'utf8')).toBe(SETTINGS);

    // a link to nothing is refused, not replaced by a file or followed to create one
    rmSync(target);
    const r = run('install');
    expect([r.code, r.stderr]).toEqual([1, `ctx: ${file} is a symbolic link to ${target}, which does not exist: create it or remove the link; nothing changed\n`]);
    expect(existsSync(target)).toBe(false);
    expect(readlinkSync(file)).toBe(target);
  });

  it('keeps numbers as written (12345678901234567890, 1e400, 1.50) through install and uninstall', () => {
    const original = '{\n  "big": 12345678901234567890,\n  "huge": 1e400,\n  "price": 1.50,\n  "list": [1.0, -0, 2E+3]\n}\n';
    const { home, root, file } = project(dir, original);
    const run = (action: string) => ctx(join(root, '.ctx'), ['hooks', action, runtime], { cwd: root, env: { HOME: home } });
    expect(run('install').code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('{\n  "big": 12345678901234567890,\n  "huge": 1e400,\n  "price": 1.50,\n  "list": [1.0, -0, 2E+3],\n  "hooks": {\n')).toBe(true);
    expect(run('uninstall').code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });
});

describe('settings.json ctx cannot merge into', () => {
  it('refuses an event that is not a list instead of replacing it', () => {
    const original = '{\n  "hooks": { "Stop": { "command": "mine" } }\n}\n';
    const { home, root, file } = project('.claude', original);
    const r = ctx(join(root, '.ctx'), ['hooks', 'install', 'claude-code'], { cwd: root, env: { HOME: home } });
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `ctx: ${file}: "hooks.Stop" is not an array; nothing changed\n`]);
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(existsSync(`${file}.ctx-backup`)).toBe(false);
  });
});

describe('settings.json with comments', () => {
  it('gemini-cli (which strips comments) keeps them through install and uninstall', () => {
    const original = '{\n  // my theme\n  "ui": { "theme": "GitHub" } /* kept */\n}\n';
    const { home, root, file } = project('.gemini', original);
    const run = (action: string) => ctx(join(root, '.ctx'), ['hooks', action, 'gemini-cli'], { cwd: root, env: { HOME: home } });
    expect(run('install').code).toBe(0);
    // ctx's entries go in right after the last value: the comment that followed it now follows them
    expect(readFileSync(file, 'utf8')).toMatch(/^\{\n {2}\/\/ my theme\n {2}"ui": \{ "theme": "GitHub" \},\n {2}"hooks": \{\n[^]*\n {2}\} \/\* kept \*\/\n\}\n$/);
    expect(run('status').stdout).toMatch(/^AfterAgent\t\S+ \S+ hook gemini-cli\nSessionEnd\t\S+ \S+ hook gemini-cli\n$/);
    expect(run('uninstall').code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('claude-code (which reads plain JSON) refuses them, changing nothing', () => {
    const original = '{\n  // mine\n  "model": "opus"\n}\n';
    const { home, root, file } = project('.claude', original);
    const r = ctx(join(root, '.ctx'), ['hooks', 'install', 'claude-code'], { cwd: root, env: { HOME: home } });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(new RegExp(`^ctx: ${file} is not JSON \\(.*\\); nothing changed\\n$`));
    expect(readFileSync(file, 'utf8')).toBe(original);
  });
});

const ours = () => JSON.stringify([process.execPath, CTX, 'hook', 'codex']);

function codex(text: string) {
  const dir = tempDir();
  const codexHome = join(dir, 'codex-home');
  const config = join(codexHome, 'config.toml');
  mkdirSync(codexHome);
  writeFileSync(config, text);
  const run = (action: string) => ctx(join(dir, '.ctx'), ['hooks', action, 'codex'], { env: { CODEX_HOME: codexHome }, cwd: dir });
  // ctx's hooks go to the project's .codex/hooks.json, trusted at the end of config.toml
  const trusted = `\n${codexTrust(join(dir, '.codex', 'hooks.json'), JSON.parse(ours()).join(' '))}`;
  return { config, run, trusted };
}

describe('ctx hooks … codex parses config.toml', () => {
  it('does not take a "[…]" line inside a multi-line string for a table: notify goes before the real one, and out again', () => {
    const original = 'model = "o3"\ndeveloper_instructions = """\nBe brief.\n[important]\nNever push.\n"""\n\n[tui]\nnotifications = true\n';
    const { config, run, trusted } = codex(original);
    expect(run('install').code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(`model = "o3"\ndeveloper_instructions = """\nBe brief.\n[important]\nNever push.\n"""\n\nnotify = ${ours()}\n[tui]\nnotifications = true\n${trusted}`);
    expect(run('status').stdout).toBe(codexHookLines(JSON.parse(ours()).join(' ')));
    expect(run('uninstall').code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(original);
  });

  it('does not take a nested array line of a multi-line array for a table', () => {
    const original = 'pairs = [\n  [1, 2],\n  [3, 4],\n]\n[tui]\nnotifications = true\n';
    const { config, run, trusted } = codex(original);
    expect(run('install').code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(`pairs = [\n  [1, 2],\n  [3, 4],\n]\nnotify = ${ours()}\n[tui]\nnotifications = true\n${trusted}`);
    expect(run('uninstall').code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(original);
  });

  it('finds a notify written with a quoted key: another program is refused, ctx\'s own is replaced', () => {
    const original = '"notify" = ["notify-send", "Codex"]\n';
    const { config, run, trusted } = codex(original);
    expect(run('install')).toMatchObject({ code: 1, stdout: '', stderr: `ctx: ${config}: notify already runs another program ("notify" = ["notify-send", "Codex"]); nothing changed\n` });
    expect(readFileSync(config, 'utf8')).toBe(original);
    expect(run('status')).toMatchObject({ code: 0, stdout: codexHookLines(null) });

    writeFileSync(config, `'notify' = ["/old/node", "/old/ctx", "hook", "codex"] # old\nmodel = "o3"\n`);
    expect(run('install').code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(`notify = ${ours()}\nmodel = "o3"\n${trusted}`);
  });

  it('refuses a notify that is a table (dotted key or [notify]), saying what is there', () => {
    for (const [original, shown] of [
      ['model = "o3"\nnotify.program = "x"\n', 'notify.program = "x"'],
      ['model = "o3"\n[notify]\nprogram = "x"\n', '[notify]'],
    ]) {
      const { config, run } = codex(original);
      expect(run('install')).toMatchObject({ code: 1, stdout: '', stderr: `ctx: ${config}: notify is already set and is not a program's argv (${shown}): remove it to install ctx's; nothing changed\n` });
      expect(readFileSync(config, 'utf8')).toBe(original);
    }
  });

  it("refuses a file that is not TOML with the parser's line and column, and status never says installed then", () => {
    const broken = `notify = ${ours()}\nmodel = \n`;
    const { config, run } = codex(broken);
    for (const action of ['status', 'install', 'uninstall']) {
      const r = run(action);
      expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `ctx: ${config}: not TOML (line 2, column 9: invalid value); nothing changed\n`]);
    }
    expect(readFileSync(config, 'utf8')).toBe(broken);
    const duplicate = codex('model = "o3"\nmodel = "o4"\n');
    expect(duplicate.run('install')).toMatchObject({ code: 1, stderr: `ctx: ${duplicate.config}: not TOML (line 2, column 1: trying to redefine an already defined table or value); nothing changed\n` });
  });

  it('keeps the mode of config.toml and edits a linked one through to its target', () => {
    const { config, run, trusted } = codex('model = "o3"\n');
    chmodSync(config, 0o600);
    expect(run('install').code).toBe(0);
    expect(mode(config)).toBe(0o600);
    const target = join(tempDir(), 'config.toml');
    writeFileSync(target, 'model = "o3"\n');
    rmSync(config);
    symlinkSync(target, config);
    expect(run('install').code).toBe(0);
    expect(readlinkSync(config)).toBe(target);
    expect(readFileSync(target, 'utf8')).toBe(`model = "o3"\nnotify = ${ours()}\n${trusted}`);
    expect(run('uninstall').code).toBe(0);
    expect([readlinkSync(config), readFileSync(target, 'utf8')]).toEqual([target, 'model = "o3"\n']);
  });
});
