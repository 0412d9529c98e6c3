// The commit hook's in-process read of a code repository's config (src/store/code/plain.ts) is
// parseGitConfig's reading of the files userConfigFiles lists, and the repository's: each answer read
// with no git on PATH equals git's; what the reader leaves to git gives null.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plainConfig, plainDirs } from '../src/store/code/plain.js';
import { codeConfig } from '../src/store/code/repo.js';
import { tempDir } from './helpers.js';

const BASE: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1' };
delete BASE.GIT_EXEC_PATH;
const NO_GIT = { PATH: '/nonexistent' };
const HOOK = { GIT_EXEC_PATH: '/usr/lib/git-core' };

describe('the hooks config keys, in-process', () => {
  it("reads what git reads: a url alone is empty, quoted values of other keys, a global file's keys, comments; leaves the same things to git", () => {
    const top = tempDir();
    const global = join(top, '..', `${top.split('/').pop()}.gitconfig`);
    const env = { ...BASE, GIT_CONFIG_GLOBAL: global };
    writeFileSync(global, '');
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: top, env });
    const config = join(top, '.git', 'config');
    const original = execFileSync('cat', [config], { encoding: 'utf8' });
    const cases: [string, string, boolean][] = [
      // a key alone: git's boolean reads ctx.links as true, remote.origin.url has no value
      ['[ctx]\n\tlinks\n[remote "origin"]\n\turl\n', '', true],
      ['[alias]\n\tst = "status -s" ; short\n[remote "origin"]\n\turl = https://example.com/a.git # the url\n', '', true],
      ['[ctx]\n\tlinks = true\n', '[ctx]\n\tlinks = false\n[trailer]\n\tifexists = add\n', true],
      ['[remote "origin"]\n\turl = a\n', '[remote "origin"]\n\turl = b\n', true],
      ['[remote "origin"]\n\turl = "quoted"\n', '', false],
      ['[remote "origin"]\n\turl = a\\tb\n', '', false],
      ['[ctx] links = false\n', '', false],
      ['[includeIf "gitdir:/x/"]\n\tpath = other\n', '', false],
      ['[ctx]\n\tlinks = false\n', '[ctx]\n\tlinks = "true"\n', false],
      ['[ctx]\n links = false\r\n', '', false],
    ];
    for (const [text, globalText, plain] of cases) {
      writeFileSync(config, original + text);
      writeFileSync(global, globalText);
      const dirs = plainDirs(top, env);
      expect(dirs !== null && plainConfig(dirs, { ...env, ...HOOK }) !== null, text + globalText).toBe(plain);
      // git's answer: codeConfig without the site's directories (no diff.* key here: the staged change may be read in-process too)
      if (plain) expect(codeConfig(top, { ...env, ...HOOK, ...NO_GIT }, dirs!), text + globalText).toEqual({ ...codeConfig(top, env), plainDiff: true });
    }
    // GIT_CONFIG_NOSYSTEM other than a plain boolean: git's reading of it is git's
    writeFileSync(config, original);
    writeFileSync(global, '');
    expect(plainConfig(plainDirs(top, env)!, { ...env, ...HOOK, GIT_CONFIG_NOSYSTEM: 'On' })).toEqual({ trailerRules: false, diffRules: false });
    expect(plainConfig(plainDirs(top, env)!, { ...env, ...HOOK, GIT_CONFIG_NOSYSTEM: ' 1' })).toBeNull();
  });
});
