// Secret policy on the write path: redact (default) before hashing, block (exit 1, nothing written),
// warn (stored as is, a line on stderr); `--secrets` overrides git config ctx.secrets.
import { decode, encode } from 'cbor-x';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_ENV, corpusFiles, ctx, fsck, git, itCorpus, newStore, objectCount, refSnapshot } from './helpers.js';
import { scanSecrets } from '../src/core/secret-rules.js';

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
      // the summary derived from the first prompt holds the token too, and is stored as is with it
      'warning: secret stored as is (ctx.secrets=warn): github-token in the summary',
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

describe('secrets in metadata and annotations', () => {
  const small = line('hello', 'u1');

  it('redacts --summary and --ticket in meta.json and the commit message, counted with the rest', () => {
    const store = newStore();
    const r = checkpoint(store, ['--summary', `deploy with ${GH}`, '--ticket', `T-1 ${AWS}`], TRANSCRIPT);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const meta = JSON.parse(git(store, ['show', 'b:meta.json']));
    expect([meta.summary, meta.ticket_id, meta.redactions]).toEqual([
      'deploy with [REDACTED:github-token]',
      'T-1 [REDACTED:aws-access-key-id]',
      { 'aws-access-key-id': 2, 'github-token': 2, 'private-key': 1 },
    ]);
    expect(git(store, ['log', '-1', '--format=%s', 'b'])).toBe('deploy with [REDACTED:github-token]\n');
    const all = git(store, ['cat-file', '--batch-all-objects', '--batch']);
    for (const s of [GH, AWS]) expect(all.includes(s)).toBe(false);
    expect(ctx(store, ['verify', '--all'], { env }).code).toBe(0);
  });

  it('--secrets block refuses a secret in --summary; warn stores it and says so', () => {
    const store = newStore();
    const before = [refSnapshot(store), objectCount(store)];
    const blocked = checkpoint(store, ['--secrets', 'block', '--summary', `deploy with ${GH}`], small);
    expect([blocked.code, blocked.stdout, blocked.stderr.split('\n')[0]]).toEqual([1, '', 'ctx: secret found: github-token in the summary; nothing written']);
    expect([refSnapshot(store), objectCount(store)]).toEqual(before);
    const warned = checkpoint(store, ['--secrets', 'warn', '--summary', `deploy with ${GH}`], small);
    expect([warned.code, warned.stderr]).toEqual([0, 'warning: secret stored as is (ctx.secrets=warn): github-token in the summary\n']);
    expect(JSON.parse(git(store, ['show', 'b:meta.json'])).summary).toBe(`deploy with ${GH}`);
  });

  it('redacts ctx annotate --summary and --label, and block refuses them', () => {
    const store = newStore();
    expect(checkpoint(store, [], small).code).toBe(0);
    const r = ctx(store, ['annotate', 'b', '--summary', `key ${GH}`, '--label', `x-${AWS}`, '--json'], { env });
    expect(r.code).toBe(0);
    const note = JSON.parse(git(store, ['notes', '--ref', 'ctx', 'show', 'b']));
    expect(note).toEqual({ v: 1, at: FIXED_ENV.CTX_NOW, by: 'alice', summary: 'key [REDACTED:github-token]', labels: ['x-[REDACTED:aws-access-key-id]'], redactions: { 'aws-access-key-id': 1, 'github-token': 1 } });
    git(store, ['config', 'ctx.secrets', 'block']);
    const notesBefore = refSnapshot(store);
    const blocked = ctx(store, ['annotate', 'b', '--summary', `key ${GH}`], { env });
    expect([blocked.code, blocked.stderr.split('\n')[0]]).toEqual([1, 'ctx: secret found: github-token in the summary; nothing written']);
    expect(refSnapshot(store)).toBe(notesBefore);
    // --secrets overrides the config for this note: warn stores it as written and says so on stderr
    const warned = ctx(store, ['annotate', 'b', '--summary', `key ${GH}`, '--secrets', 'warn'], { env });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('github-token');
    expect(JSON.parse(git(store, ['notes', '--ref', 'ctx', 'show', 'b']).split('\n').filter(Boolean).pop()!).summary).toBe(`key ${GH}`);
  });

  it('the push scan reads meta.json, commit messages and annotations, not only artifacts', () => {
    const store = newStore();
    const bare = join(store, '..', 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', bare]);
    expect(ctx(store, ['remote', 'add', 'o', bare], { env }).code).toBe(0);
    const c = checkpoint(store, ['--secrets', 'warn', '--summary', `deploy with ${GH}`, '--json'], small);
    const id = JSON.parse(c.stdout).id.slice(4, 16);
    const push = ctx(store, ['push', 'o'], { env });
    expect([push.code, push.stderr.split('\n')[0]]).toEqual([1, `ctx: push blocked: 1 commit new to the remote hold secrets: ctx-${id} (github-token)`]);
    expect(ctx(store, ['push', 'o', '--allow-secrets'], { env }).code).toBe(0);
    git(store, ['config', 'ctx.secrets', 'warn']);
    expect(ctx(store, ['annotate', 'b', '--summary', `key ${AWS}`], { env }).code).toBe(0);
    const again = ctx(store, ['push', 'o'], { env });
    expect([again.code, again.stderr.split('\n')[0]]).toEqual([1, `ctx: push blocked: 1 annotation new to the remote hold secrets: annotation of ctx-${id} (aws-access-key-id)`]);
    expect(execFileSync('git', ['--git-dir', bare, 'for-each-ref', '--format=%(refname)'], { encoding: 'utf8' })).toBe('refs/heads/b\n');
    // an annotated tag's message (a save made by hand, say) is scanned too
    expect(ctx(store, ['push', 'o', '--allow-secrets'], { env }).code).toBe(0);
    git(store, ['-c', 'user.name=a', '-c', 'user.email=a@b', 'tag', '-a', 'save/by-hand', '-m', `deploy key ${AWS}`, 'b']);
    const tagged = ctx(store, ['push', 'o'], { env });
    expect([tagged.code, tagged.stderr.split('\n')[0]]).toEqual([1, 'ctx: push blocked: 1 tag new to the remote hold secrets: tag save/by-hand (aws-access-key-id)']);
    expect(execFileSync('git', ['--git-dir', bare, 'tag'], { encoding: 'utf8' })).toBe('');
  });
});

describe('secrets written with JSON escapes', () => {
  // the same secrets, as a JSON writer that escapes may write them
  const ESCAPED = line(`a \\u0041${AWS.slice(1)} b ${GH.replace('_', '\\u005f')} c https:\\/\\/x:${rep('Zq8Wm3Kx', 16)}@db.internal\\/app`, 'u1');
  const REDACTED_ESCAPED = line('a [REDACTED:aws-access-key-id] b [REDACTED:github-token] c https:\\/\\/x:[REDACTED:url-credentials]@db.internal\\/app', 'u1');

  it('redacts them where they are written, keeping the line valid JSON; other lines stay byte for byte', () => {
    const store = newStore();
    const plain = line('nothing \\u00e9 here \\/ at all', 'u0');
    const r = checkpoint(store, [], plain + ESCAPED);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const stored = ctx(store, ['show', '--delta', 'b'], { env }).stdout;
    expect(stored).toBe(plain + REDACTED_ESCAPED);
    for (const l of stored.trimEnd().split('\n')) JSON.parse(l);
    expect(JSON.parse(ctx(store, ['show', 'b', '--json'], { env }).stdout).meta.redactions).toEqual({ 'aws-access-key-id': 1, 'github-token': 1, 'url-credentials': 1 });
    const md = ctx(store, ['materialize', 'b', '--format', 'markdown'], { env });
    expect(md.code).toBe(0);
    for (const s of [AWS, GH]) expect(md.stdout.includes(s)).toBe(false);
  });

  it('the push scan finds them', () => {
    const store = newStore();
    const bare = join(store, '..', 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', bare]);
    expect(ctx(store, ['remote', 'add', 'o', bare], { env }).code).toBe(0);
    const c = checkpoint(store, ['--secrets', 'warn', '--json'], ESCAPED);
    // three in the artifact, and the same three in the summary derived from its prompt
    expect(c.stderr.split('\n').filter(Boolean).map((l) => l.replace(/.*: /, ''))).toEqual(['aws-access-key-id at byte 53', 'github-token at byte 81', 'url-credentials at byte 141', 'aws-access-key-id in the summary', 'github-token in the summary', 'url-credentials in the summary']);
    const id = JSON.parse(c.stdout).id.slice(4, 16);
    const push = ctx(store, ['push', 'o'], { env });
    expect([push.code, push.stderr.split('\n')[0]]).toEqual([1, `ctx: push blocked: 1 commit new to the remote hold secrets: ctx-${id} (aws-access-key-id, github-token, url-credentials)`]);
  });
});

describe('the scan of a long text', () => {
  it('finds in one keyword pass what a keyword search per rule finds: the same findings from 64 KB on as in 4 KB pieces', () => {
    const ANT = `sk-ant-${rep('Zq3Xw8Rt5Yp2Lm7Nk4Jh', 40)}`;
    const OPENAI = `sk-${rep('aB3dE5fG7hJ9kL2mN4pQ6rS8', 40)}`;
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 97}`).join(' ');
    // secrets of four rules and two keywords starting at one place (sk-ant- and sk-), far apart
    const text = [words(20_000), `aws ${AWS} and`, words(20_000), `push with ${GH} please`, words(20_000), `key ${ANT} and ${OPENAI} end`, words(20_000), PEM.replace(/\\n/g, '\n'), words(100)].join(' ');
    const bytes = Buffer.from(text, 'latin1');
    expect(bytes.length).toBeGreaterThan(4 * 65536);
    const whole = scanSecrets(bytes);
    expect(whole.map((f) => f.rule)).toEqual(['aws-access-key-id', 'github-token', 'anthropic-api-key', 'openai-api-key', 'private-key']);
    expect(whole.map((f) => text.slice(f.offset, f.offset + f.length))).toEqual([AWS, GH, ANT, OPENAI, PEM.replace(/\\n/g, '\n')]);
    expect(scanSecrets(bytes, 4096)).toEqual(whole);
  });
});
