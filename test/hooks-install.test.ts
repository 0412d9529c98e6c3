// `ctx hooks install|uninstall|status claude-code`: merged into settings.json, never clobbering it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, ctx, newStore, tempDir } from './helpers.js';

const USER_SETTINGS = `{
  "model": "opus",
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "say done" } ] }
    ],
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./check.sh" } ] }
    ]
  }
}
`;

const EVENTS = ['Stop', 'PreCompact', 'SessionEnd', 'SessionStart'];

describe('ctx hooks claude-code', () => {
  it("installs into the project's settings.json next to the user's own hooks, idempotently, and uninstall restores it", () => {
    const store = newStore();
    const project = tempDir();
    mkdirSync(join(project, '.git'));
    mkdirSync(join(project, '.claude'));
    const file = join(project, '.claude', 'settings.json');
    writeFileSync(file, USER_SETTINGS);
    const run = (args: string[]) => ctx(store, ['hooks', ...args, 'claude-code'], { cwd: project });

    const first = run(['install']);
    expect(first.code).toBe(0);
    expect(readFileSync(`${file}.ctx-backup`, 'utf8')).toBe(USER_SETTINGS);
    const installed = JSON.parse(readFileSync(file, 'utf8'));
    const command = `${process.execPath} ${CTX} hook claude-code`;
    expect(installed.model).toBe('opus');
    expect(first.stderr).toContain(`covers claude sessions started in ${project}, not in its subdirectories (Claude Code reads .claude/settings.json only where it starts): run this in each directory claude starts in, or use --user\n`);
    expect(installed.hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh' }] }]);
    expect(installed.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'say done' }] }, { hooks: [{ type: 'command', command, timeout: 30 }] }]);
    expect(installed.hooks.SessionStart).toEqual([{ matcher: 'resume|compact', hooks: [{ type: 'command', command, timeout: 30 }] }]);
    for (const e of EVENTS) expect(first.stdout).toContain(`${e}\t${command}\n`);

    const bytes = readFileSync(file);
    const second = run(['install']);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/nothing to change/);
    expect(readFileSync(file).equals(bytes)).toBe(true);

    const status = ctx(store, ['--json', 'hooks', 'status', 'claude-code'], { cwd: project });
    expect(JSON.parse(status.stdout)).toMatchObject({ v: 1, action: 'status', path: file, installed: true, events: Object.fromEntries(EVENTS.map((e) => [e, command])) });

    expect(run(['uninstall']).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(USER_SETTINGS);
    expect(existsSync(`${file}.ctx-backup`)).toBe(false);
    expect(JSON.parse(ctx(store, ['--json', 'hooks', 'status', 'claude-code'], { cwd: project }).stdout).installed).toBe(false);
  });

  it('keeps what the user changed meanwhile when uninstalling, removing only ctx entries', () => {
    const store = newStore();
    const project = tempDir();
    const file = join(project, '.claude', 'settings.json');
    mkdirSync(join(project, '.claude'));
    writeFileSync(file, USER_SETTINGS);
    expect(ctx(store, ['hooks', 'install', 'claude-code'], { cwd: project }).code).toBe(0);
    const edited = JSON.parse(readFileSync(file, 'utf8'));
    edited.hooks.Stop[1].hooks.push({ type: 'command', command: 'notify-send hi' });
    edited.theme = 'dark';
    writeFileSync(file, JSON.stringify(edited));
    expect(ctx(store, ['hooks', 'uninstall', 'claude-code'], { cwd: project }).code).toBe(0);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.theme).toBe('dark');
    expect(after.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'say done' }] }, { hooks: [{ type: 'command', command: 'notify-send hi' }] }]);
    expect(Object.keys(after.hooks).sort()).toEqual(['PreToolUse', 'Stop']);
  });

  it('--user honours CLAUDE_CONFIG_DIR; a file ctx created is removed again', () => {
    const store = newStore();
    const config = join(tempDir(), 'claude-config');
    const env = { CLAUDE_CONFIG_DIR: config };
    expect(ctx(store, ['hooks', 'install', 'claude-code', '--user'], { env }).code).toBe(0);
    const file = join(config, 'settings.json');
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).hooks)).toEqual(EVENTS);
    expect(ctx(store, ['hooks', 'uninstall', 'claude-code', '--user'], { env }).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    // without CLAUDE_CONFIG_DIR: ~/.claude
    const home = tempDir();
    expect(ctx(store, ['hooks', 'install', 'claude-code', '--user'], { env: { HOME: home, CLAUDE_CONFIG_DIR: undefined } }).code).toBe(0);
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(true);
  });

  it('refuses a settings.json that is not JSON, changing nothing', () => {
    const store = newStore();
    const project = tempDir();
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.json'), '{ not json');
    const r = ctx(store, ['hooks', 'install', 'claude-code'], { cwd: project });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ctx: .*settings\.json is not JSON .*nothing changed\n/);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toBe('{ not json');
  });
});
