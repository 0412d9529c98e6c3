// Secret policy on the write path: redact (default) before hashing, block (exit 1, nothing written),
// warn (stored as is, a line on stderr); `--secrets` overrides git config ctx.secrets.
import { decode, encode } from 'cbor-x';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, corpusFiles, ctx, fsck, git, itCorpus, newStore, objectCount, refSnapshot } from './helpers.js';

// Real-shaped fakes, assembled so that no secret-shaped literal sits in this file.
const rep = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
const GH = `ghp_${rep('Q7vR2mK9wZ4tL1xB8nC3', 36)}`;
const AWS = `AKIA${rep('QW7ERT2YUI4OPZ5X', 16)}`;
const PEM = `-----BEGIN OPENSSH PRIVATE KEY-----\\n${rep('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', 280)}\\n-----END OPENSSH PRIVATE KEY-----`;

const line = (text: string, uuid: string) =>
  `{"type":"user","message":{"role":"user","content":"${text}"},"uuid":"${uuid}","sessionId":"s1","timestamp":"2026-01-01T10:00:00.000Z"}\n`;
const TRANSCRIPT = line(`push with ${GH} please`, 'u1') + line(`aws ${AWS} and key ${PEM}`, 'u2');
const REDACTED = line('push with [REDACTED:github-token] please', 'u1') + line('aws [REDACTED:aws-access-key-id] and key [REDACTED:private-key]', 'u2');

const env = FIXED_ENV;
const checkpoint = (store: string, extra: string[] = [], input: string | Uint8Array = TRANSCRIPT) =>
  ctx(store, ['checkpoint', '-b', 'b', '--format', 'claude-code-v1', ...extra, '-'], { env, input });

describe('secrets on checkpoint', () => {
  it('redacts by default: the stored artifact and every hash see only the placeholder', () => {
    const store = newStore();
    const r = checkpoint(store);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const stored = ctx(store, ['show', '--delta', 'b'], { env }).stdout;
    expect(stored).toBe(REDACTED);
    expect(JSON.parse(ctx(store, ['show', 'b', '--json'], { env }).stdout).meta).toMatchObject({
      redactions: { 'aws-access-key-id': 1, 'github-token': 1, 'private-key': 1 },
      artifact_size: Buffer.byteLength(REDACTED),
    });
    expect(ctx(store, ['materialize', 'b', '--stop', 'root', '--verify'], { env }).stdout).toBe(REDACTED);
    // no object anywhere in the repo holds the secret
    const all = git(store, ['cat-file', '--batch-all-objects', '--batch']);
    for (const s of [GH, AWS, 'b3BlbnNzaC1rZXkt']) expect(all.includes(s)).toBe(false);
    expect(fsck(store)).toEqual({ code: 0, output: '' });
    expect(ctx(store, ['verify', '--all'], { env }).code).toBe(0);
  });

  it('--secrets block: exit 1 naming the rule and byte offset, nothing written', () => {
    const store = newStore();
    const before = [refSnapshot(store), objectCount(store)];
    const r = checkpoint(store, ['--secrets', 'block']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(`ctx: secret found: github-token at byte ${TRANSCRIPT.indexOf(GH)} (and 2 more); nothing written`);
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);
  });

  it('--secrets warn: stores the bytes as they are, one stderr line per secret', () => {
    const store = newStore();
    const r = checkpoint(store, ['--secrets', 'warn']);
    expect(r.code).toBe(0);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `warning: secret stored as is (ctx.secrets=warn): github-token at byte ${TRANSCRIPT.indexOf(GH)}`,
      `warning: secret stored as is (ctx.secrets=warn): aws-access-key-id at byte ${TRANSCRIPT.indexOf(AWS)}`,
      `warning: secret stored as is (ctx.secrets=warn): private-key at byte ${TRANSCRIPT.indexOf('-----BEGIN')}`,
    ]);
    expect(ctx(store, ['show', '--delta', 'b'], { env }).stdout).toBe(TRANSCRIPT);
    expect(JSON.parse(ctx(store, ['show', 'b', '--json'], { env }).stdout).meta.redactions).toBeUndefined();
  });

  it('follows git config ctx.secrets, which --secrets overrides', () => {
    const store = newStore();
    git(store, ['config', 'ctx.secrets', 'block']);
    expect(checkpoint(store).code).toBe(1);
    expect(refSnapshot(store)).toBe('');
    expect(checkpoint(store, ['--secrets', 'redact']).code).toBe(0);
    git(store, ['config', 'ctx.secrets', 'loud']);
    expect(checkpoint(store).stderr).toMatch(/^ctx: unknown secret policy 'loud' \(redact, block, warn\)\n/);
  });

  it('redacts inside the strings of a CBOR artifact and encodes it again', () => {
    const store = newStore();
    const messages = [{ role: 'user', content: `token ${GH}` }, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }];
    const r = ctx(store, ['checkpoint', '-b', 'c', '--format', 'bureau-agent-v1', '-'], { env, input: encode(messages) });
    expect(r.code).toBe(0);
    expect(decode(ctx(store, ['show', '--delta', 'c'], { env }).bytes)).toEqual([{ role: 'user', content: 'token [REDACTED:github-token]' }, messages[1]]);
    expect(JSON.parse(ctx(store, ['show', 'c', '--json'], { env }).stdout).meta.redactions).toEqual({ 'github-token': 1 });
  });

  it('leaves an artifact with only placeholders byte for byte', () => {
    const store = newStore();
    const text = line(`use ghp_${'x'.repeat(36)} or sk-... or <your-key>`, 'u1');
    expect(checkpoint(store, [], text).code).toBe(0);
    expect(ctx(store, ['show', '--delta', 'b'], { env }).stdout).toBe(text);
  });
});

describe('secrets on import', () => {
  it('names the byte offset in the file when blocking', () => {
    const store = newStore();
    const file = `${store}/../t.jsonl`;
    const first = line('hello', 'u0');
    writeFileSync(file, first + TRANSCRIPT);
    const r = ctx(store, ['import', 'claude-code', file, '-b', 'i', '--secrets', 'block'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`github-token at byte ${first.length + TRANSCRIPT.indexOf(GH)} of `);
    expect(refSnapshot(store)).toBe('');
  });

  itCorpus('stores corpus transcripts unchanged: no redactions in any commit', () => {
    const store = newStore();
    const files = [...corpusFiles('claude-code').filter((f) => basename(f).startsWith('randlee__claude-history__simple-967e501d-session')), ...corpusFiles('codex')];
    for (const [i, file] of files.entries()) {
      const runtime = file.includes('/codex/') ? 'codex' : 'claude-code';
      expect(ctx(store, ['import', runtime, file, '-b', `c/${i}`], { env }).code).toBe(0);
      expect(ctx(store, ['materialize', `c/${i}`, '--stop', 'root'], { env }).bytes.equals(readFileSync(file))).toBe(true);
    }
    const metas = git(store, ['log', '--all', '--format=%H']).trim().split('\n').map((c) => JSON.parse(git(store, ['show', `${c}:meta.json`])));
    expect(metas.filter((m) => m.redactions)).toEqual([]);
  });
});
