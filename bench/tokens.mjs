// Benchmark: token estimation (src/core/tokens.ts). The BPE tokenizer ctx uses (gpt-tokenizer,
// cl100k_base) against the characters/4 heuristic: throughput on the 2.3 MB corpus transcript, and
// error against the output_tokens Claude Code records in `message.usage` of its assistant lines.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { CORPUS_FILE, DIST, ROOT, fmtInt, fmtMs, median, progress, table } from './lib.mjs';

const CORPUS_DIR = join(ROOT, '../shared/corpus/claude-code');

/** The texts ctx counts in a content array (as contentTexts in src/formats/format.ts). */
function texts(content) {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b) =>
    b?.type === 'text' ? [b.text] : b?.type === 'thinking' ? [b.thinking] : b?.type === 'tool_use' ? [String(b.name ?? ''), JSON.stringify(b.input ?? {})] : [],
  );
}

/**
 * One API response per message id. Claude Code writes a line per content block, each with the
 * usage of the stream's start (output_tokens a handful); only a line with `stop_reason` carries the
 * final count, so only such messages are compared.
 */
function assistantMessages() {
  const byId = new Map();
  for (const f of readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(CORPUS_DIR, f), 'utf8').split('\n')) {
      let e;
      try {
        e = JSON.parse(line);
      } catch {
        continue;
      }
      const m = e?.message;
      if (e.type !== 'assistant' || !m?.usage || !m.id) continue;
      const key = `${f} ${m.id}`;
      const g = byId.get(key) ?? { texts: [], out: 0, final: false, thinking: false, textOnly: true };
      g.texts.push(...texts(m.content));
      g.out = Math.max(g.out, m.usage.output_tokens ?? 0);
      g.final ||= m.stop_reason != null;
      for (const b of Array.isArray(m.content) ? m.content : []) {
        if (b?.type === 'thinking') g.thinking = true;
        if (b?.type !== 'text') g.textOnly = false;
      }
      byId.set(key, g);
    }
  }
  return [...byId.values()];
}

function errors(messages, counter) {
  let ape = 0;
  let est = 0;
  let actual = 0;
  const n = messages.length;
  for (const g of messages) {
    const e = counter.count(g.texts);
    ape += Math.abs(e - g.out) / g.out;
    est += e;
    actual += g.out;
  }
  return { mape: n ? (100 * ape) / n : NaN, ratio: actual ? est / actual : NaN };
}

export async function benchTokens({ rounds = 7 } = {}) {
  const lib = await import(pathToFileURL(join(DIST, 'index.js')).href);
  const t0 = performance.now();
  const tokenizer = await lib.loadTokenizer();
  const loadMs = performance.now() - t0;
  if (tokenizer.name === 'chars/4') throw new Error('tokens: the tokenizer did not load');
  const counters = { [`${tokenizer.name} (gpt-tokenizer)`]: tokenizer, 'chars/4': lib.charsPerToken };

  progress('tokens: throughput');
  const big = readFileSync(CORPUS_FILE, 'utf8');
  const mb = Buffer.byteLength(big) / 1e6;
  const speed = [];
  for (const [name, c] of Object.entries(counters)) {
    const times = [];
    let count = 0;
    for (let i = 0; i <= rounds; i++) {
      const s = performance.now();
      count = c.count([big]);
      if (i > 0) times.push(performance.now() - s); // the first round warms the merge cache
    }
    const ms = median(times);
    speed.push([name, fmtInt(count), fmtMs(ms), ms < 1 ? '> 1,000 (one pass over the lengths)' : (mb / (ms / 1000)).toFixed(1)]);
  }

  progress('tokens: error against recorded usage');
  const all = assistantMessages();
  const final = all.filter((g) => g.final && g.out > 0);
  const sets = [
    ['final messages', final],
    ['… without thinking blocks', final.filter((g) => !g.thinking)],
    ['… text only', final.filter((g) => g.textOnly)],
  ];
  const rows = [];
  const summary = {};
  for (const [label, set] of sets) {
    const row = [label, set.length];
    for (const [name, c] of Object.entries(counters)) {
      const e = errors(set, c);
      row.push(`${e.mape.toFixed(1)}%`, e.ratio.toFixed(3));
      if (label === 'final messages') summary[name] = e;
    }
    rows.push(row);
  }
  const names = Object.keys(counters);
  const markdown = [
    '## Token estimation\n',
    `${tokenizer.name} through gpt-tokenizer ${JSON.parse(readFileSync(join(ROOT, 'node_modules/gpt-tokenizer/package.json'), 'utf8')).version} ` +
      `(ranks inside the package; loaded on first use in ${fmtMs(loadMs)} ms) against characters/4. ` +
      `Throughput: the ${mb.toFixed(1)} MB corpus transcript as one string, median of ${rounds} after a warm-up.\n`,
    table(['estimator', 'tokens', 'ms', 'MB/s'], speed),
    '',
    `Error: each assistant message of the ${readdirSync(CORPUS_DIR).length} Claude Code corpus transcripts (its text, thinking and tool_use ` +
      `name + JSON input, as ctx counts them) against the \`output_tokens\` Claude Code recorded for it. ${fmtInt(all.length)} messages; ` +
      `only the ${fmtInt(final.length)} with a \`stop_reason\` carry a final count (the others hold the stream's start count). ` +
      'MAPE = mean absolute percentage error; ratio = estimated / recorded, summed. Claude\'s tokenizer is not public: ' +
      'cl100k_base is an approximation, and thinking is billed in full but often stored summarized or empty.\n',
    table(['messages', 'n', ...names.flatMap((n) => [`${n} MAPE`, 'ratio'])], rows),
    '',
  ].join('\n');
  return { markdown, summary, loadMs };
}
