// Finding objects by hex prefix: loose object directories and pack .idx files (version 2).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export function findByPrefix(gitdir: string, prefix: string): string[] {
  const found = new Set<string>();
  const objects = join(gitdir, 'objects');
  const dir = prefix.slice(0, 2);
  if (prefix.length >= 2) {
    try {
      for (const n of readdirSync(join(objects, dir))) if ((dir + n).startsWith(prefix) && n.length === 38) found.add(dir + n);
    } catch {}
  }
  let packs: string[] = [];
  try {
    packs = readdirSync(join(objects, 'pack')).filter((n) => n.endsWith('.idx'));
  } catch {}
  for (const idx of packs) for (const oid of searchIdx(readFileSync(join(objects, 'pack', idx)), prefix)) found.add(oid);
  return [...found].sort();
}

function searchIdx(buf: Buffer, prefix: string): string[] {
  if (buf.readUInt32BE(0) !== 0xff744f63 || buf.readUInt32BE(4) !== 2) return [];
  const fanout = 8;
  const first = parseInt(prefix.slice(0, 2).padEnd(2, '0'), 16);
  const lastFirst = prefix.length >= 2 ? first : parseInt(prefix[0] + 'f', 16);
  const lo = first === 0 ? 0 : buf.readUInt32BE(fanout + (first - 1) * 4);
  const hi = buf.readUInt32BE(fanout + lastFirst * 4);
  const names = fanout + 256 * 4;
  const out: string[] = [];
  for (let i = lo; i < hi; i++) {
    const oid = buf.toString('hex', names + i * 20, names + i * 20 + 20);
    if (oid.startsWith(prefix)) out.push(oid);
  }
  return out;
}
