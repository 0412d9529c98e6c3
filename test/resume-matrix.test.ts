// Any runtime resumes any other's context: for every ordered pair of the drivers in test/drivers
// (self pairs too), a real session of the source (one turn with a tool round trip) is imported,
// exported to the target, and resumed by the target's real CLI; the model then receives the
// source's prompt, its tool call with the result right after it, and its answer, in order, and the
// new prompt last. Each source's session runs once; its branch is exported to every target.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { agentMissing, describeAgent } from './agent-clis.js';
import { ctx } from './helpers.js';
import { SCRIPT, type DriverHandle, type Exported, type ResumeDriver, type Row } from './drivers/driver.js';
import { DRIVERS } from './drivers/index.js';

const ENV = { CTX_PRINCIPAL: 'alice', CTX_MACHINE: 'box', CTX_NOW: '2026-01-02T03:04:05.678Z' };
const SESSION_TIMEOUT_MS = 300_000;
const PAIR_TIMEOUT_MS = 300_000;

/** Why a driver cannot run here, or null. */
const missing = new Map(DRIVERS.map((d) => [d, agentMissing(d.cli) ?? d.missing?.() ?? null]));

// test/helpers' tempDir is emptied after each test: the sessions here outlive one test
const root = mkdtempSync(join(tmpdir(), 'ctx-matrix-'));
const project = join(root, 'proj');
const store = join(root, '.ctx');
const handles = new Map<ResumeDriver, DriverHandle>();

/** The driver's sandbox, started on first use. */
async function handle(d: ResumeDriver): Promise<DriverHandle> {
  if (!handles.has(d)) {
    const dir = join(root, d.runtime);
    mkdirSync(dir);
    handles.set(d, await d.start(dir, project));
  }
  return handles.get(d)!;
}

beforeAll(() => {
  mkdirSync(project);
  writeFileSync(join(project, SCRIPT.file), SCRIPT.notes);
  const init = ctx(store, ['init', store]);
  if (init.code !== 0) throw new Error(init.stderr);
});
afterAll(async () => {
  for (const h of handles.values()) await h.close();
  rmSync(root, { recursive: true, force: true });
});

/** The source's turn as its model saw it: the prompt, the one tool call and its result. */
function sourceTurn(rows: Row[]): Row[] {
  const prompt = rows.filter((r) => r.role === 'user' && r.kind === 'text').at(-1);
  const calls = rows.filter((r) => r.kind === 'call');
  const results = rows.filter((r) => r.kind === 'result');
  expect(prompt?.text).toBe(SCRIPT.prompt);
  expect([calls.length, results.length]).toEqual([1, 1]);
  expect(results[0].text).toContain(SCRIPT.notes.trim());
  return [prompt!, calls[0], results[0]];
}

/**
 * What the target's model received holds the source's turn in order — prompt, call, its result
 * right after it, answer — with no other call or result, and the new prompt last.
 */
function expectResumed(rows: Row[], turn: Row[]): void {
  const [prompt, call, result] = turn;
  const strip = ({ role, kind, text }: Row) => ({ role, kind, text });
  const at = rows.findIndex((r) => r.role === 'user' && r.kind === 'text' && r.text === prompt.text);
  expect(at, JSON.stringify(rows)).toBeGreaterThanOrEqual(0);
  const c = rows.findIndex((r, i) => i > at && r.kind === 'call');
  expect(rows.filter((r) => r.kind === 'call').map(strip)).toEqual([strip(call)]);
  expect(rows.filter((r) => r.kind === 'result').map(strip)).toEqual([strip(result)]);
  expect(c, JSON.stringify(rows)).toBeGreaterThan(at);
  expect(rows[c + 1]).toMatchObject({ kind: 'result' });
  // an API that names calls ties the result to its own call
  if (rows[c].id !== undefined || rows[c + 1].id !== undefined) expect(rows[c + 1].id).toBe(rows[c].id);
  const answer = rows.findIndex((r, i) => i > c + 1 && r.role === 'assistant' && r.kind === 'text');
  expect(rows[answer]?.text, JSON.stringify(rows)).toBe(SCRIPT.answer);
  expect(rows.at(-1)).toEqual({ role: 'user', kind: 'text', text: SCRIPT.next });
  // the id the source's model gave the call reaches the target's model unchanged (both APIs carry one)
  if (call.id !== undefined && rows[c].id !== undefined) expect(rows[c].id).toBe(call.id);
  // and nothing else: the source runtime's own system prompt, permissions, environment or session
  // context is not conversation (the target adds its own, which its driver leaves out)
  expect(rows.map(strip), JSON.stringify(rows)).toEqual(([prompt, call, result, { role: 'assistant', kind: 'text', text: SCRIPT.answer }, { role: 'user', kind: 'text', text: SCRIPT.next }] satisfies Row[]).map(strip));
}

for (const source of DRIVERS) {
  describeAgent(`a ${source.runtime} session`, missing.get(source)!, () => {
    let branch: string;
    let turn: Row[];
    beforeAll(async () => {
      const h = await handle(source);
      const s = await source.firstSession(h, SCRIPT.prompt);
      turn = sourceTurn(s.rows);
      const imported = ctx(store, ['import', source.runtime, s.transcript, '--json'], { env: ENV, cwd: project });
      if (imported.code !== 0) throw new Error(`ctx import ${source.runtime}: ${imported.stderr}`);
      branch = JSON.parse(imported.stdout).branch;
    }, SESSION_TIMEOUT_MS);

    for (const target of DRIVERS) {
      describeAgent(`resumed by ${target.runtime}`, missing.get(target)!, () => {
        it(`${source.runtime} → ${target.runtime}: the model receives the prompt, the tool call and its result, the answer, then the new prompt`, async () => {
          const h = await handle(target);
          const out = ctx(store, ['export', target.runtime, branch, '--json'], { env: { ...ENV, ...h.env }, cwd: project });
          expect([out.code, out.stderr]).toEqual([0, '']);
          const exported: Exported = JSON.parse(out.stdout);
          const sent = await target.resume(h, exported, SCRIPT.next);
          expectResumed(target.conversation(sent), turn);
        }, PAIR_TIMEOUT_MS);
      });
    }
  });
}
