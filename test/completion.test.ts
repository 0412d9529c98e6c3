// `ctx completion bash|zsh|fish`: scripts built from the command table, tried in the shells themselves.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, FIXED_ENV, FIXTURES, ctx, newStore, tempDir } from './helpers.js';
import { formatNames, storageNames } from '../src/formats/registry.js';

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const script = (shell: string) => {
  const r = ctx(join(tempDir(), 'none'), ['completion', shell]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
};

function storeWithBranch(): string {
  const s = newStore();
  expect(ctx(s, ['import', 'claude-code', join(FIXTURES, 'claude-code', 'compacted-session.jsonl'), '-b', 'alice/auth-fix'], { env: FIXED_ENV }).code).toBe(0);
  return s;
}

/** What bash offers for the words typed so far (the last one is being completed). */
function bash(file: string, words: string[], env: Record<string, string> = {}): string {
  const line = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync('bash', ['-c', `ctx() { node ${CTX} "$@"; }; source ${file}; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _ctx; echo "\${COMPREPLY[*]}"`], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH!, HOME: tempDir(), ...env },
    cwd: tempDir(),
  });
  expect(r.stderr).toBe('');
  return r.stdout.trimEnd();
}

describe('ctx completion', () => {
  it('bash completes commands, options, runtimes, formats, --stop, --view, --color, --engine and branch names', () => {
    const file = join(tempDir(), 'ctx.bash');
    writeFileSync(file, script('bash'));
    expect(bash(file, ['ctx', 'mat'])).toBe('materialize');
    expect(bash(file, ['ctx', 'hel'])).toBe('help');
    expect(bash(file, ['ctx', 'help', 'imp'])).toBe('import');
    expect(bash(file, ['ctx', 'import', ''])).toBe('claude-code codex gemini-cli pi opencode copilot');
    expect(bash(file, ['ctx', 'materialize', 'x', '--format', ''])).toBe(formatNames().join(' '));
    expect(bash(file, ['ctx', 'checkpoint', '--format', 'c'])).toBe('claude-code-v1 codex-rollout-v1 codex-rollout-v0 copilot-events-v1');
    expect(bash(file, ['ctx', 'materialize', 'x', '--stop', ''])).toBe('compaction root');
    expect(bash(file, ['ctx', 'budget', 'x', '--stop', 'r'])).toBe('root');
    expect(bash(file, ['ctx', 'materialize', 'x', '--view', ''])).toBe('reasoning conversation');
    expect(bash(file, ['ctx', 'show', 'x', '--format', ''])).toBe('markdown');
    expect(bash(file, ['ctx', 'show', 'x', '--me'])).toBe('--messages');
    expect(bash(file, ['ctx', '--color', ''])).toBe('auto always never');
    expect(bash(file, ['ctx', 'log', '--color', 'a'])).toBe('auto always');
    expect(bash(file, ['ctx', '--engine', ''])).toBe('auto git isogit');
    expect(bash(file, ['ctx', 'log', '--a'])).toBe('--all');
    expect(bash(file, ['ctx', 'log', '-n', ''])).toBe('');
    expect(bash(file, ['ctx', 'hooks', ''])).toBe('install uninstall status');
    expect(bash(file, ['ctx', 'hooks', 'install', ''])).toBe('claude-code codex gemini-cli pi opencode copilot git');
    expect(bash(file, ['ctx', 'mcp', ''])).toBe('serve install uninstall status');
    expect(bash(file, ['ctx', 'mcp', 'install', ''])).toBe('claude-code codex gemini-cli opencode copilot');
    expect(bash(file, ['ctx', 'completion', ''])).toBe('bash zsh fish');
    const store = storeWithBranch();
    expect(bash(file, ['ctx', '--store', store, 'log', ''])).toBe('alice/auth-fix');
    expect(bash(file, ['ctx', 'fork', 'al'], { CTX_STORE: store })).toBe('alice/auth-fix');
    expect(bash(file, ['ctx', '--json', '--store', store, 'materialize', 'alice/auth-fix', '--format', 'mark'])).toBe('markdown');
  });

  it.runIf(has('zsh'))('zsh parses the script and registers it with compinit', () => {
    const file = join(tempDir(), '_ctx');
    writeFileSync(file, script('zsh'));
    expect(spawnSync('zsh', ['-n', file]).status).toBe(0);
    const r = spawnSync('zsh', ['-f', '-c', `autoload -U compinit; compinit -u -d ${join(tempDir(), 'zcompdump')}; source ${file}; print -r -- $_comps[ctx]`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('_ctx\n');
  });

  it.runIf(has('fish'))('fish parses the script and completes from it', () => {
    const file = join(tempDir(), 'ctx.fish');
    writeFileSync(file, script('fish'));
    expect(spawnSync('fish', ['-n', file]).status).toBe(0);
    const store = storeWithBranch();
    const complete = (line: string) =>
      spawnSync('fish', ['--no-config', '-c', `function ctx; node ${CTX} $argv; end; source ${file}; complete -C '${line}'`], { encoding: 'utf8', cwd: tempDir() })
        .stdout.trimEnd()
        .split('\n')
        .map((l) => l.split('\t')[0]);
    expect(complete('ctx mat')).toEqual(['materialize']);
    expect(complete('ctx import ')).toEqual(['claude-code', 'codex', 'gemini-cli', 'pi']);
    expect(complete('ctx checkpoint --format ').sort()).toEqual(storageNames().sort());
    expect(complete('ctx materialize x --view ').sort()).toEqual(['conversation', 'reasoning']);
    expect(complete(`ctx --store ${store} log `)).toEqual(['alice/auth-fix']);
  });

  it('takes runtime names from the registry, by capability; an unknown shell is a usage error', () => {
    const file = join(tempDir(), 'ctx.bash');
    writeFileSync(file, script('bash'));
    expect(bash(file, ['ctx', 'import', ''])).toBe('claude-code codex gemini-cli pi opencode copilot');
    expect(bash(file, ['ctx', 'export', ''])).toBe('claude-code codex gemini-cli pi opencode copilot');
    expect(bash(file, ['ctx', 'hook', ''])).toBe('claude-code codex gemini-cli pi opencode copilot');
    const r = ctx(join(tempDir(), 'none'), ['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("ctx: unknown shell 'tcsh' (bash, zsh, fish)\n");
  });
});
