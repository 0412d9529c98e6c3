// Annotated tags (saved sessions): the tag object is written here as `git tag -a` writes it, and
// read back header by header. Refs are moved by refs.ts, as every other ref.
import type { Signature } from './engine.js';
import { writeObject } from './loose-objects.js';
import { formatSignature } from './tree-layout.js';

export interface TagObject {
  /** the object tagged (a commit) */
  object: string;
  type: string;
  /** the tag's name, without refs/tags/ */
  tag: string;
  /** `name <email> <seconds> +0000` as written */
  tagger: string;
  /** everything after the header's blank line */
  message: string;
}

/** Writes an annotated tag object of a commit (a loose object: both engines read it); moves no ref. */
export function writeTagObject(gitdir: string, commit: string, name: string, tagger: Signature, message: string): string {
  const body = `object ${commit}\ntype commit\ntag ${name}\ntagger ${formatSignature(tagger)}\n\n${message}`;
  return writeObject(gitdir, 'tag', Buffer.from(body, 'utf8'));
}

export function parseTag(data: Uint8Array): TagObject | null {
  const text = Buffer.from(data).toString('utf8');
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const field = (k: string) => new RegExp(`^${k} (.*)$`, 'm').exec(head)?.[1];
  const object = field('object');
  if (object === undefined) return null;
  return { object, type: field('type') ?? '', tag: field('tag') ?? '', tagger: field('tagger') ?? '', message: end < 0 ? '' : text.slice(end + 2) };
}
