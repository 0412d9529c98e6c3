// The in-process read of a loose object (store/loose-objects.ts readLoose) on objects a hostile store
// may hold: it answers only for a plain, sane file and leaves everything else to git (null).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readLoose } from '../src/store/loose-objects.js';
import { git, newStore, tempDir } from './helpers.js';

/** Writes `raw` (header and body) deflated where the object `oid` goes; returns its path. */
function plant(store: string, oid: string, raw: Buffer): string {
  mkdirSync(join(store, 'objects', oid.slice(0, 2)), { recursive: true });
  const path = join(store, 'objects', oid.slice(0, 2), oid.slice(2));
  writeFileSync(path, deflateSync(raw));
  return path;
}
const object = (body: Buffer) => Buffer.concat([Buffer.from(`blob ${body.length}\0`), body]);
const idOf = (raw: Buffer) => createHash('sha1').update(raw).digest('hex');

describe('readLoose', () => {
  it('reads a blob git wrote, exactly as git cat-file gives it', () => {
    const store = newStore();
    const file = join(tempDir(), 'a.txt');
    writeFileSync(file, 'hello\n');
    const oid = git(store, ['hash-object', '-w', file]).trim();
    expect(readLoose(store, oid)).toEqual({ type: 'blob', data: Buffer.from('hello\n') });
  });

  it('leaves to git an object that inflates past 16 MiB (a deflate bomb), though its id is right', () => {
    const store = newStore();
    const raw = object(Buffer.alloc(17 << 20));
    const oid = idOf(raw);
    plant(store, oid, raw);
    expect(readLoose(store, oid)).toBeNull();
    expect(git(store, ['cat-file', '-s', oid])).toBe(`${17 << 20}\n`);
  });

  it('leaves to git a symbolic link where an object should be, and bytes that do not hash to the id', () => {
    const store = newStore();
    const outside = join(tempDir(), 'elsewhere');
    const raw = object(Buffer.from('outside the store\n'));
    writeFileSync(outside, deflateSync(raw));
    const oid = idOf(raw);
    mkdirSync(join(store, 'objects', oid.slice(0, 2)), { recursive: true });
    symlinkSync(outside, join(store, 'objects', oid.slice(0, 2), oid.slice(2)));
    expect(readLoose(store, oid)).toBeNull();
    const liar = object(Buffer.from('not what the name says\n'));
    const named = idOf(object(Buffer.from('something else\n')));
    plant(store, named, liar);
    expect(readLoose(store, named)).toBeNull();
  });
});
