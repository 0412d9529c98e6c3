// `ctx hook RUNTIME` loads only a built-in runtime's live capture (registry.ts CAPTURES, each plug-in's
// capture.ts), not its import, hook settings, export or tools: it must be exactly the capture the
// whole plug-in has, for every runtime that captures, or a hook would capture differently from a catch-up.
import { describe, expect, it } from 'vitest';
import { allRuntimes, liveCapture, runtime } from '../src/runtimes/registry.js';

describe("the capture a hook loads", () => {
  it("is the plug-in's own capture object, for every built-in runtime that captures", async () => {
    const capturing = (await allRuntimes()).filter((r) => r.capture !== undefined);
    expect(capturing.map((r) => r.name)).toEqual(['claude-code', 'codex', 'gemini-cli', 'pi', 'opencode', 'copilot']);
    for (const r of capturing) expect(await liveCapture(r.name)).toBe(r.capture);
  });

  it('refuses an unknown runtime as the whole registry does', async () => {
    const env = { PATH: '/nonexistent' };
    const whole = await runtime('claude-cod', 'capture', env).then(String, (e: Error) => e.message);
    expect(await liveCapture('claude-cod', env).then(String, (e: Error) => e.message)).toBe(whole);
    expect(whole).toMatch(/^unknown runtime claude-cod: did you mean claude-code/);
  });
});
