// `read`: a slice of a context (a commit range, the last N messages) as markdown or the neutral
// model, the newest messages that fit a token budget. Messages are counted one at a time from the
// newest, so a long context costs what the budget holds, not what the context holds.
import { z } from 'zod';
import { neutralMessages, parseStop, readContext } from '../../api/read/context-reader.js';
import type { NeutralMessage } from '../../core/neutral.js';
import type { TokenCounter } from '../../core/tokens.js';
import { fullId } from '../../core/ids.js';
import { UsageError } from '../../errors/index.js';
import { formatNames, outputFormat } from '../../formats/registry.js';
import { defineTool } from './tool.js';
import { SPEC } from './shared.js';

export const MAX_TOKENS = 100_000;
/** The renderings (markdown), then the neutral model itself. */
const RENDERINGS = formatNames().filter((n) => outputFormat(n)?.tier === 'rendering');
const FORMATS = [...RENDERINGS, 'neutral'] as unknown as [string, ...string[]];
/** More characters than this per token of the budget: over it, whatever the tokenizer says (not counted). */
const CHARS_PER_TOKEN_CAP = 32;

export const read = defineTool({
  name: 'read',
  title: 'Read a context',
  description:
    'A slice of the context at a commit or branch tip: the messages from `from` (an ancestor commit; default: where the context starts, its last compaction), only the last N with `last`, as markdown (tool results cut to 5 lines) or the neutral model (JSON: role, content blocks, timestamp). The newest messages that fit max_tokens (cl100k_base) are returned; `omitted` says how many older ones of the slice did not fit.',
  input: {
    id: SPEC.describe('the commit or branch whose context is read'),
    from: SPEC.optional().describe('the first commit of the range, an ancestor of id (default: the last compaction)'),
    last: z.number().int().min(1).max(1_000_000).optional().describe('only the last N messages of the range'),
    format: z.enum(FORMATS).default(FORMATS[0]).describe(`${FORMATS.join(' or ')}: a rendering for reading (default ${FORMATS[0]}), or the neutral messages as JSON`),
    max_tokens: z.number().int().min(100).max(MAX_TOKENS).default(8000).describe(`the token budget of the result (100 to ${MAX_TOKENS}; default 8000)`),
  },
  async run(t, a) {
    const got = await t.withRepo(async (repo) => {
      const oid = await repo.resolve(a.id);
      const stop = await parseStop(repo, a.from ?? 'compaction');
      if (stop.kind === 'ancestor' && !(await repo.firstParents(oid)).includes(stop.oid)) throw new UsageError(`read: from ${a.from} is not on the chain of ${a.id}`);
      const { parts } = await readContext(repo, oid, stop, { spec: a.id });
      return { oid, commits: parts.map((p) => fullId(p.oid)), messages: neutralMessages(parts), counter: await repo.tokenCounter() };
    });
    const total = got.messages.length;
    const start = a.last === undefined ? 0 : Math.max(0, total - a.last);
    const out = outputFormat(a.format);
    const render = out?.tier === 'rendering' ? (ms: readonly NeutralMessage[], at: number) => Buffer.from(out.render(ms, at + 1)).toString('utf8') : (ms: readonly NeutralMessage[]) => JSON.stringify(ms);
    const fit = fitting(got.messages, start, a.max_tokens, render, got.counter);
    const slice = got.messages.slice(fit.offset);
    const head = { id: fullId(got.oid), from: got.commits[0] ?? null, commits: got.commits.length, total, offset: fit.offset, count: slice.length, omitted: fit.offset - start, tokens: fit.tokens, format: a.format };
    const note = slice.length === 0 && total > start ? `the newest message alone is over max_tokens (${a.max_tokens}): raise it` : '';
    if (a.format === 'neutral') return { data: { ...head, messages: slice, ...(note ? { note } : {}) }, text: note || fit.text };
    return { data: { ...head, text: fit.text, ...(note ? { note } : {}) }, text: note || fit.text };
  },
});

/** The first message (from `start`) such that everything after it renders within `budget` tokens: counted newest first, checked whole. */
function fitting(ms: readonly NeutralMessage[], start: number, budget: number, render: (ms: readonly NeutralMessage[], at: number) => string, counter: TokenCounter): { offset: number; tokens: number; text: string } {
  const cost = (text: string) => (text.length > budget * CHARS_PER_TOKEN_CAP ? Infinity : counter.count([text]));
  let offset = ms.length;
  for (let used = 0; offset > start; offset--) {
    used += cost(render([ms[offset - 1]], offset - 1));
    if (used > budget) break;
  }
  // one message's count plus another's is not always the two counted together: drop until it fits
  for (; offset <= ms.length; offset++) {
    const text = offset === ms.length ? '' : render(ms.slice(offset), offset);
    const tokens = text === '' ? 0 : cost(text);
    if (tokens <= budget) return { offset, tokens, text };
  }
  return { offset: ms.length, tokens: 0, text: '' };
}
