// Benchmark: token estimation (src/core/tokens.ts). The BPE tokenizer ctx uses (cl100k_base, over
// ranks serialized from gpt-tokenizer's at build time) against the characters/4 heuristic: load time, throughput on the 2.3 MB corpus
// transcript, and error against the usage Claude Code and Codex record in their transcripts.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { CORPUS_FILE, DIST, NODE, ROOT, fmtInt, fmtMs, median, progress, run, table } from './lib.mjs';

const CORPUS_DIR = join(ROOT, '../shared/corpus/claude-code');

/** The texts ctx counts in a content array (as contentTexts in src/formats/format.ts). */
function texts(content) {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b) =>
    b?.type === 'text' ? [b.text] : b?.type === 'thinking' ? [b.thinking] : b?.type === 'tool_use' ? [String(b.name ?? ''), JSON.stringify(b.input ?? {})] : b?.type === 'tool_result' ? texts(b.content) : [],
  );
}

function jsonLines(file) {
  return readFileSync(file, 'utf8').split('\n').flatMap((l) => {
    try {
      return [JSON.parse(l)];
    } catch {
      return [];
    }
  });
}

/**
 * Input side: between two API requests of a main chain, the prompt grows by the first request's
 * output and the tool results sent back. The recorded prompt size is input_tokens +
 * cache_creation_input_tokens + cache_read_input_tokens; pairs across a new prompt, a compaction or
 * after thinking (which the API may strip) are left out.
 */
function promptDeltas() {
  const pairs = [];
  for (const f of readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.jsonl')).sort()) {
    const reqs = [];
    let added = [];
    let broken = false;
    for (const e of jsonLines(join(CORPUS_DIR, f))) {
      if (e.isSidechain) continue;
      const m = e.message;
      if (e.type === 'assistant' && m?.usage && m.id) {
        let r = reqs[reqs.length - 1];
        if (r?.id !== m.id) {
          const u = m.usage;
          r = { id: m.id, prompt: (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0), before: added, out: [], thinking: false, broken };
          reqs.push(r);
          added = [];
          broken = false;
        }
        r.out.push(...texts(m.content));
        if (Array.isArray(m.content) && m.content.some((b) => b?.type === 'thinking')) r.thinking = true;
      } else if (e.type === 'user') {
        const c = m?.content;
        for (const b of Array.isArray(c) ? c : [c]) {
          if (b?.type === 'tool_result') added.push(...texts(b.content));
          else broken = true;
        }
      } else if (e.type === 'system' && e.subtype === 'compact_boundary') broken = true;
    }
    for (let i = 1; i < reqs.length; i++) {
      const [a, b] = [reqs[i - 1], reqs[i]];
      if (b.broken || a.thinking || b.prompt <= a.prompt) continue;
      pairs.push({ texts: [...a.out, ...b.before], out: b.prompt - a.prompt });
    }
  }
  return pairs;
}

/**
 * Codex: each `token_count` event records the request's output_tokens and reasoning_output_tokens;
 * their difference is the visible output, which the rollout holds (assistant text, function call
 * names and arguments). Reasoning is encrypted, so it is left out on both sides.
 */
function codexOutputs() {
  const dir = join(ROOT, '../shared/corpus/codex');
  const rows = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    let out = [];
    for (const e of jsonLines(join(dir, f))) {
      const p = e.payload;
      if (e.type === 'response_item' && p?.type === 'message' && p.role === 'assistant') out.push(...p.content.map((b) => b.text ?? ''));
      else if (e.type === 'response_item' && p?.type === 'function_call') out.push(p.name, p.arguments);
      else if (e.type === 'response_item' && p?.type === 'message' && p.role === 'user') out = [];
      else if (e.type === 'event_msg' && p?.type === 'token_count' && p.info?.last_token_usage) {
        const u = p.info.last_token_usage;
        const visible = u.output_tokens - (u.reasoning_output_tokens ?? 0);
        if (out.length && visible > 0) rows.push({ texts: out, out: visible });
        out = [];
      }
    }
  }
  return rows;
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
  const tokenizer = await lib.loadTokenizer();
  // the load a writing process pays once, measured in fresh processes (this one may have it already)
  const probe = `const t=performance.now();const {loadTokenizer}=await import(${JSON.stringify(pathToFileURL(join(DIST, 'index.js')).href)});` +
    `const a=performance.now();await loadTokenizer();process.stdout.write(String(performance.now()-a))`;
  const loads = [];
  for (let i = 0; i < 6; i++) loads.push(Number(run(NODE, ['--input-type=module', '-e', probe], { stdout: 'pipe' }).stdout.toString()));
  const loadMs = median(loads.slice(1));
  if (tokenizer.name === 'chars/4') throw new Error('tokens: the tokenizer did not load');
  const counters = { [`${tokenizer.name} (ctx)`]: tokenizer, 'chars/4': lib.charsPerToken };

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

  // one character repeated: byte-pair encoding is quadratic in a piece's length, ctx counts long runs in chunks
  progress('tokens: 1 MB of one repeated character');
  const runs = [];
  for (const ch of ['A', '=', ' ']) {
    const text = ch.repeat(1_000_000);
    const times = [];
    let count = 0;
    for (let i = 0; i <= 3; i++) {
      const s = performance.now();
      count = tokenizer.count([text]);
      if (i > 0) times.push(performance.now() - s);
    }
    runs.push([`1,000,000 × ${JSON.stringify(ch)}`, fmtInt(count), fmtMs(median(times))]);
  }

  progress('tokens: error against recorded usage');
  const all = assistantMessages();
  const final = all.filter((g) => g.final && g.out > 0);
  const sets = [
    ['Claude Code output_tokens, final messages', final],
    ['… without thinking blocks', final.filter((g) => !g.thinking)],
    ['… text only', final.filter((g) => g.textOnly)],
    ['Claude Code prompt growth between requests', promptDeltas()],
    ['Codex visible output (output − reasoning tokens)', codexOutputs()],
  ];
  const rows = [];
  const summary = {};
  for (const [label, set] of sets) {
    const row = [label, set.length];
    for (const [name, c] of Object.entries(counters)) {
      const e = errors(set, c);
      row.push(`${e.mape.toFixed(1)}%`, e.ratio.toFixed(3));
      summary[`${name} ${label}`] = e;
    }
    rows.push(row);
  }
  const names = Object.keys(counters);
  const markdown = [
    '## Token estimation\n',
    `${tokenizer.name}, counted by ctx over the ranks of gpt-tokenizer ${JSON.parse(readFileSync(join(ROOT, 'node_modules/gpt-tokenizer/package.json'), 'utf8')).version} serialized at build time ` +
      `(ranks in dist/chunks/cl100k_base.ranks; loading it takes ${fmtMs(loadMs)} ms, median of 5 fresh processes after a warm-up) against characters/4. ` +
      `Throughput: the ${mb.toFixed(1)} MB corpus transcript as one string, median of ${rounds} after a warm-up.\n`,
    table(['estimator', 'tokens', 'ms', 'MB/s'], speed),
    '',
    `One character repeated a million times, ${tokenizer.name} (before this release: 100,000 × \`A\` took 13 s, a megabyte over ten minutes), median of 3 after a warm-up:\n`,
    table(['text', 'tokens', 'ms'], runs),
    '',
    'Error against recorded usage, three ways. (1) Each final assistant message of the Claude Code corpus (text, thinking and tool_use ' +
      `name + JSON input, as ctx counts them) against its \`output_tokens\`: ${fmtInt(all.length)} messages, only the ${fmtInt(final.length)} ` +
      'with a `stop_reason` carry a final count. (2) The growth of the recorded prompt (input + cache creation + cache read tokens) ' +
      'between consecutive requests of a main chain against the output and tool results in between. (3) Codex: visible output tokens of ' +
      'each request (output − reasoning) against its assistant text and function calls. MAPE = mean absolute percentage error; ratio = ' +
      'estimated / recorded, summed. Claude\'s tokenizer is not public (cl100k_base approximates it); every recorded figure also holds ' +
      'framing (roles, tool-call wrappers) and, for Claude, thinking that transcripts store summarized or empty.\n',
    table(['messages', 'n', ...names.flatMap((n) => [`${n} MAPE`, 'ratio'])], rows),
    '',
  ].join('\n');
  return { markdown, summary, loadMs };
}
