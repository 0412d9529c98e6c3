// Prices per million tokens: the store's `prices.json` first, else the table bundled with
// @pydantic/genai-prices (its data as installed: nothing here asks it to fetch or update).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calcPrice } from '@pydantic/genai-prices';
import { BadInputError } from '../../errors/index.js';

/** USD per million tokens; `input` is uncached input. */
export interface Price {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface Prices {
  /** the model's price at `time` (ISO) for a request of `prompt` input tokens (cached ones included), or null when neither the store nor the table knows it */
  of(model: string, time?: string, prompt?: number): Price | null;
}

/** The file in the store (its git directory) that overrides the table. */
export const PRICES_FILE = 'prices.json';

export function storePrices(gitdir: string): Prices {
  const own = readOverrides(join(gitdir, PRICES_FILE));
  const cache = new Map<string, ModelPrice | null>();
  return {
    of(model, time, prompt = 0) {
      const mine = own.get(model);
      if (mine) return mine;
      const key = `${model}\0${time?.slice(0, 10) ?? ''}`;
      if (!cache.has(key)) cache.set(key, tableEntry(model, time));
      const entry = cache.get(key)!;
      return entry && priceOf(entry, prompt);
    },
  };
}

type ModelPrice = NonNullable<ReturnType<typeof calcPrice>>['model_price'];

function tableEntry(model: string, time?: string): ModelPrice | null {
  const at = time ? new Date(time) : undefined;
  let r: ReturnType<typeof calcPrice>;
  try {
    r = calcPrice({ input_tokens: 0, output_tokens: 0 }, model, at && !Number.isNaN(at.getTime()) ? { timestamp: at } : {});
  } catch {
    return null;
  }
  return r?.model_price ?? null;
}

/** A tiered price goes by the request's prompt, as the table's own calculation does: the last tier it is over. */
function priceOf(p: ModelPrice, prompt: number): Price | null {
  const mtok = (k: string): number | undefined => {
    const v = p[k];
    if (v === undefined || typeof v === 'number') return v;
    let price = v.base;
    for (const t of v.tiers) if (prompt > t.start) price = t.price;
    return price;
  };
  const input = mtok('input_mtok');
  const output = mtok('output_mtok');
  if (input === undefined || output === undefined) return null;
  // a model without a cache price is billed its input price for those tokens
  return { input, output, cacheRead: mtok('cache_read_mtok') ?? input, cacheWrite: mtok('cache_write_mtok') ?? input };
}

/** `{"model": {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75}}`, USD per million tokens; cache prices default to input. */
function readOverrides(file: string): Map<string, Price> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw new BadInputError(`${file}: cannot read: ${(e as Error).message}`);
  }
  const bad = (why: string) => new BadInputError(`${file}: ${why} (expected {"<model>": {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75}}, USD per million tokens)`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw bad('not an object');
  const out = new Map<string, Price>();
  for (const [model, p] of Object.entries(json)) {
    const n = (k: string): number | undefined => {
      const v = (p as Record<string, unknown> | null)?.[k];
      if (v === undefined) return undefined;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw bad(`${model}.${k} is not a price`);
      return v;
    };
    const input = n('input');
    const output = n('output');
    if (input === undefined || output === undefined) throw bad(`${model} needs input and output`);
    out.set(model, { input, output, cacheRead: n('cache_read') ?? input, cacheWrite: n('cache_write') ?? input });
  }
  return out;
}
