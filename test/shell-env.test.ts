// The git hook asks a runtime about the shell session running a commit only when the variables its
// plug-in's shell-env.ts names are set (registry.ts shellRuntimes), loading no other plug-in: every
// runtime with a shellSession must be listed there, or a commit its agent runs would not be linked.
import { describe, expect, it } from 'vitest';
import { allRuntimes, shellRuntimes } from '../src/runtimes/registry.js';

const ALL_SET = { CLAUDE_CODE_SESSION_ID: 'x', CODEX_THREAD_ID: 'x', COPILOT_AGENT_SESSION_ID: 'x', CTX_PI_SESSION_ID: 'x', CTX_PI_SESSION_FILE: 'x' };

describe('the shell sessions a git hook looks for', () => {
  it('lists exactly the runtimes that have a shellSession, when all their variables are set', async () => {
    const withShell = (await allRuntimes()).filter((r) => r.capture?.shellSession).map((r) => r.name);
    expect(await shellRuntimes(ALL_SET)).toEqual(withShell);
    expect(await shellRuntimes(ALL_SET)).toEqual(['claude-code', 'codex', 'pi', 'copilot']);
  });

  it('names a runtime only when every one of its variables is set and not empty', async () => {
    expect(await shellRuntimes({})).toEqual([]);
    expect(await shellRuntimes({ CLAUDE_CODE_SESSION_ID: 'x' })).toEqual(['claude-code']);
    expect(await shellRuntimes({ CLAUDE_CODE_SESSION_ID: '' })).toEqual([]);
    expect(await shellRuntimes({ CTX_PI_SESSION_ID: 'x' })).toEqual([]);
    expect(await shellRuntimes({ CTX_PI_SESSION_ID: 'x', CTX_PI_SESSION_FILE: 'f', CODEX_THREAD_ID: 't' })).toEqual(['codex', 'pi']);
  });

  it('a runtime left out is never asked: its shellSession answers null without its variables', async () => {
    for (const r of await allRuntimes()) expect(r.capture?.shellSession?.({}) ?? null).toBeNull();
  });
});
