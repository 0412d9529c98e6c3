// Secret rules: one real-shaped FAKE secret per rule is found with its rule id and exact span; each
// placeholder is not; the transcript corpus has no finding at all, so it is stored unchanged.
// Fakes are generated from a seeded PRNG, so no secret-shaped literal sits in the source.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SECRET_RULES, countByRule, decodeEscapes, findSecrets, redactBytes, scanSecrets, shannonEntropy } from './secret-rules.js';

const CORPUS = fileURLToPath(new URL('../../../shared/corpus', import.meta.url));
// the corpus is ../shared beside the clone: without it the corpus suite is skipped, saying why; with CI set it fails
const HAS_CORPUS = existsSync(CORPUS);
const SKIP_CORPUS = !HAS_CORPUS && !process.env.CI;

let seed = 0x2545f491;
function fake(alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    s += alphabet[(seed >>> 8) % alphabet.length];
  }
  return s;
}
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = `${UPPER}abcdefghijklmnopqrstuvwxyz0123456789`;
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}_-`;
const HEX = '0123456789abcdef';
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const pemBody = (sep: string) => Array.from({ length: 6 }, () => fake(B64, 64)).join(sep);

const JWT = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: '4242', name: 'Ada', iat: 1760000000 })}.${fake(B64URL, 43)}`;
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${pemBody('\n')}\n-----END RSA PRIVATE KEY-----`;
const PEM_IN_JSON = `-----BEGIN PRIVATE KEY-----\\n${pemBody('\\n')}\\n-----END PRIVATE KEY-----`;

// [rule, secret, text around it ({} marks the secret)]
const FOUND: [string, string, string][] = [
  ['private-key', PEM, 'key file:\n{}\n'],
  ['private-key', PEM_IN_JSON, '{"type":"service_account","private_key":"{}\\n","client_email":"a@b.iam"}'],
  ['aws-access-key-id', `AKIA${fake('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`, 'export AWS_ACCESS_KEY_ID={}\n'],
  ['aws-secret-access-key', fake(B64, 40), 'aws_secret_access_key = {}\n'],
  ['aws-secret-access-key', fake(B64, 40), '{\\"AWS_SECRET_ACCESS_KEY\\":\\"{}\\"}'],
  ['gcp-api-key', `AIza${fake(B64URL, 35)}`, 'const firebase = { apiKey: "{}" };'],
  ['gcp-service-account-key-id', fake(HEX, 40), '"private_key_id": "{}",'],
  ['azure-storage-key', `${fake(B64, 86)}==`, 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={};EndpointSuffix=core.windows.net'],
  ['github-token', `ghp_${fake(ALNUM, 36)}`, 'git remote set-url origin https://{}@github.com/a/b.git'],
  ['github-token', `gho_${fake(ALNUM, 36)}`, 'GH_TOKEN={}'],
  ['github-token', `ghs_${fake(ALNUM, 36)}`, '"token":"{}"'],
  ['github-token', `github_pat_${fake(ALNUM, 22)}_${fake(ALNUM, 59)}`, 'use {} for the API'],
  ['gitlab-token', `glpat-${fake(B64URL, 20)}`, 'PRIVATE-TOKEN: {}'],
  ['slack-token', `xoxb-${fake('0123456789', 12)}-${fake('0123456789', 13)}-${fake(ALNUM, 24)}`, 'SLACK_BOT_TOKEN={}'],
  ['slack-webhook', `https://hooks.slack.com/services/T${fake('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 8)}/B${fake('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 10)}/${fake(ALNUM, 24)}`, 'curl -X POST {} -d @msg.json'],
  ['anthropic-api-key', `sk-ant-api03-${fake(B64URL, 93)}AA`, 'ANTHROPIC_API_KEY={}'],
  ['openai-api-key', `sk-proj-${fake(B64URL, 156)}`, 'OPENAI_API_KEY="{}"'],
  ['openai-api-key', `sk-${fake(ALNUM, 20)}T3BlbkFJ${fake(ALNUM, 20)}`, 'openai.api_key = "{}"'],
  ['stripe-secret-key', `sk_live_${fake(ALNUM, 24)}`, 'Stripe::api_key = \'{}\''],
  ['jwt', JWT, 'Authorization: Bearer {}'],
  ['url-credentials', fake(ALNUM, 16), 'DATABASE_URL=postgres://app:{}@db.internal:5432/app'],
  ['secret-assignment', fake(ALNUM, 24), 'DB_PASSWORD="{}"'],
  ['secret-assignment', fake(B64URL, 32), '{"client_secret": "{}"}'],
  ['secret-assignment', fake(ALNUM, 40), 'curl -H "Authorization: Bearer {}" https://api.example.com'],
];

const PLACEHOLDERS = [
  'ghp_xxxxxxxxxxxx',
  `ghp_${'x'.repeat(36)}`,
  `github_pat_${'X'.repeat(82)}`,
  'sk-...',
  'OPENAI_API_KEY=sk-your-key-here',
  `sk-proj-${'a'.repeat(48)}`,
  'api_key = "<your-key>"',
  'token: ${TOKEN}',
  'GITHUB_TOKEN={{ secrets.GITHUB_TOKEN }}',
  'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
  'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'password: "hunter2"',
  'const token = process.env.GITHUB_TOKEN_FOR_RELEASES;',
  'password = "correct horse battery staple"',
  'postgres://user:password@localhost:5432/db',
  'https://user:${PASSWORD}@example.com/',
  '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----',
  'eyJhbGciOiJIUzI1NiJ9.e30',
  `xoxb-${'0'.repeat(12)}-${'0'.repeat(13)}-${'x'.repeat(24)}`,
  '"input_tokens": 12345, "token_count": 99, "cached_input_tokens": 0',
  'sk_live_REPLACE_WITH_YOUR_KEY_0000',
  `AIza${'X'.repeat(35)}`,
];

// the rules without their keywords: every pattern runs on every text
const EVERY_PATTERN = SECRET_RULES.map(({ keywords, ...rule }) => rule);

describe('secret rules', () => {
  it('has a case for every rule', () => {
    expect(new Set(FOUND.map(([rule]) => rule))).toEqual(new Set(SECRET_RULES.map((r) => r.id)));
  });

  it('names keywords for every rule, in lower case where the pattern ignores case, each found in its case', () => {
    for (const rule of SECRET_RULES) {
      expect(rule.keywords?.length, rule.id).toBeGreaterThan(0);
      if (rule.pattern.ignoreCase) expect(rule.keywords?.filter((k) => k !== k.toLowerCase()), rule.id).toEqual([]);
    }
    for (const [rule, secret, around] of FOUND) {
      const text = around.replace('{}', secret);
      expect(findSecrets(text, EVERY_PATTERN), rule).toEqual(findSecrets(text));
      expect(findSecrets(text.toUpperCase(), EVERY_PATTERN), rule).toEqual(findSecrets(text.toUpperCase()));
    }
  });

  it.each(FOUND)('%s: finds the secret with its exact span', (rule, secret, around) => {
    const text = around.replace('{}', secret);
    expect(findSecrets(text)).toEqual([{ rule, offset: around.indexOf('{}'), length: secret.length }]);
  });

  it.each(PLACEHOLDERS)('placeholder %s is not a secret', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('scans bytes with byte offsets, past multi-byte UTF-8', () => {
    const token = `ghp_${fake(ALNUM, 36)}`;
    const bytes = Buffer.from(`{"t":"héllo — ✓","k":"${token}"}\n`);
    expect(scanSecrets(bytes)).toEqual([{ rule: 'github-token', offset: bytes.indexOf(token), length: token.length }]);
  });

  it('redacts into a placeholder that keeps JSON parseable, and counts by rule', () => {
    const doc = `{"key":"${PEM_IN_JSON}","gh":"ghp_${fake(ALNUM, 36)}","jwt":"${JWT}"}`;
    const findings = scanSecrets(Buffer.from(doc));
    expect(findings.map((f) => f.rule)).toEqual(['private-key', 'github-token', 'jwt']);
    const redacted = Buffer.from(redactBytes(Buffer.from(doc), findings)).toString();
    expect(JSON.parse(redacted)).toEqual({ key: '[REDACTED:private-key]', gh: '[REDACTED:github-token]', jwt: '[REDACTED:jwt]' });
    expect(countByRule(findings)).toEqual({ 'github-token': 1, jwt: 1, 'private-key': 1 });
  });

  // JSON escapes decode to the same text: the scan sees the decoded text, the span covers the escapes as written
  it.each([
    ['aws-access-key-id', (k: string) => `\\u0041${k.slice(1)}`, `AKIA${fake('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`],
    ['github-token', (k: string) => k.replace('_', '\\u005f'), `ghp_${fake(ALNUM, 36)}`],
    ['github-token', (k: string) => k.replace('_', '\\u005F'), `ghp_${fake(ALNUM, 36)}`],
    ['stripe-secret-key', (k: string) => k.replace(/_/g, '\\u005f'), `sk_live_${fake(ALNUM, 24)}`],
    ['slack-webhook', (k: string) => k.replace(/\//g, '\\/'), `https://hooks.slack.com/services/T${fake('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 8)}/B${fake('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 10)}/${fake(ALNUM, 24)}`],
    ['github-token', (k: string) => `line one\\n${k}`, `ghp_${fake(ALNUM, 36)}`],
    // JSON in a JSON string: escaped twice
    ['github-token', (k: string) => k.replace('_', '\\\\u005f'), `ghp_${fake(ALNUM, 36)}`],
  ])('%s written with JSON escapes is found; redacting it keeps the JSON valid', (rule, escape, secret) => {
    const written = escape(secret);
    const doc = `{"a":"x\\u00e9","t":"see ${written} there"}\n{"b":1}\n`;
    const findings = scanSecrets(Buffer.from(doc));
    const start = doc.indexOf(written) + (written.startsWith('line one') ? 'line one\\n'.length : 0);
    expect(findings).toEqual([{ rule, offset: start, length: doc.indexOf(' there') - start }]);
    const redacted = Buffer.from(redactBytes(Buffer.from(doc), findings)).toString();
    const lines = redacted.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(lines[0].t).toMatch(new RegExp(`^see (line one\\n)?\\[REDACTED:${rule}\\] there$`));
    expect(lines[1]).toEqual({ b: 1 });
  });

  it('decodes only lines with a \\u or \\/ escape, mapping every decoded char to where it was written', () => {
    expect(decodeEscapes('plain\n"a\\nb"\n')).toBe(null);
    const d = decodeEscapes('skip\n"\\u0041\\/b"\nx\\"y\\/\n')!;
    expect(d.text).toBe('"A/b"\nx"y/');
    expect([...d.at]).toEqual([5, 6, 12, 14, 15, 16, 17, 18, 20, 21, 23]);
  });

  // the bytes are scanned in pieces cut where no match can span: pieces of a few bytes cut at every safe space
  it('scans bytes in pieces with exactly the findings of the whole text (seeded mixes of secrets, escapes, assignments, keys)', () => {
    const parts = [
      ...FOUND.map(([, secret, around]) => around.replace('{}', secret)),
      ...FOUND.map(([, secret, around]) => around.replace('{}', secret.replace(/_/g, '\\u005f').replace(/\//g, '\\/'))),
      'word ', 'two words ', ' ', '  ', '\n', '\\n', '\n', '"', '\\"', 'password', 'Password = ', 'token ', 'Bearer ', 'basic ', 'BEGIN ', '-----BEGIN RSA PRIVATE KEY-----',
      '-----END RSA PRIVATE KEY-----', `${fake(B64, 64)} `, `${fake(ALNUM, 24)} `, 'x\\u0041y ', 'https:\\/\\/u:', '@host ', 'sk-', 'ghp_', '{"a":"', '"}\n', 'é ✓ ',
    ];
    let rng = 0x1234567;
    const pick = () => {
      rng = (Math.imul(rng, 1103515245) + 12345) >>> 0;
      return rng >>> 8;
    };
    let withFindings = 0;
    for (let round = 0; round < 300; round++) {
      let text = '';
      for (let n = 1 + (pick() % 40); n > 0; n--) text += parts[pick() % parts.length];
      const bytes = Buffer.from(text);
      const whole = findSecrets(bytes.toString('latin1'));
      if (whole.length) withFindings++;
      // the keywords only skip patterns that would find nothing
      expect(findSecrets(bytes.toString('latin1'), EVERY_PATTERN), `round ${round}: ${JSON.stringify(text)}`).toEqual(whole);
      for (const piece of [1, 7, 64, 256 * 1024]) expect(scanSecrets(bytes, piece), `round ${round}, pieces of ${piece}: ${JSON.stringify(text)}`).toEqual(whole);
    }
    expect(withFindings).toBeGreaterThan(200);
  });

  it('reports a span two rules match once, under the earlier (more specific) rule', () => {
    const token = `ghs_${fake(ALNUM, 36)}`;
    const text = `https://x-access-token:${token}@github.com/o/r.git`;
    expect(findSecrets(text)).toEqual([{ rule: 'github-token', offset: text.indexOf(token), length: token.length }]);
  });

  it('measures entropy in bits per char', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});

describe.skipIf(SKIP_CORPUS)(`the transcript corpus${SKIP_CORPUS ? ' (skipped: ../shared/corpus not found)' : ''}`, () => {
  const files = !HAS_CORPUS
    ? []
    : readdirSync(CORPUS)
        .filter((d) => statSync(join(CORPUS, d)).isDirectory())
        .flatMap((d) => readdirSync(join(CORPUS, d)).map((f) => join(CORPUS, d, f)));

  it('is at ../shared/corpus', () => {
    expect(HAS_CORPUS, `${CORPUS} not found`).toBe(true);
  });

  it('has transcripts of every runtime', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map((f) => [f.slice(CORPUS.length + 1), f]))('%s: no findings, whole or in pieces', (_, file) => {
    expect(scanSecrets(readFileSync(file))).toEqual([]);
    expect(scanSecrets(readFileSync(file), 16)).toEqual([]);
  });
});
