// The one writer of a runtime's settings (settings.json, config.toml), which may sit in a directory a
// cloned repository filled: nothing is opened through a link the repository planted, a temporary file
// is new (O_EXCL|O_NOFOLLOW, a random name beside its target), the file keeps its mode, and a linked
// settings file is edited where it points.
import { mkdirSync, readFileSync, readlinkSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { BadInputError } from '../errors/index.js';
import { lstatOrNull, replaceWhole, writeNew } from '../store/safe-write.js';

/** A settings file as read: `target` is what gets written (the link's target when `path` is a link). */
export interface SettingsFile {
  path: string;
  target: string;
  linked: boolean;
  text: string | null;
  /** permission bits to keep; null for a file that is not there yet */
  mode: number | null;
}

/** Reads `path`, through a link to its target; a link to nothing or anything but a regular file is refused. */
export function readSettingsFile(path: string): SettingsFile {
  const st = lstatOrNull(path);
  if (!st) return { path, target: path, linked: false, text: null, mode: null };
  let target = path;
  if (st.isSymbolicLink()) {
    try {
      target = realpathSync(path);
    } catch {
      throw new BadInputError(`${path} is a symbolic link to ${readlinkSync(path)}, which does not exist: create it or remove the link; nothing changed`);
    }
  }
  const real = statSync(target);
  if (!real.isFile()) throw new BadInputError(`${path} is not a regular file; nothing changed`);
  return { path, target, linked: target !== path, text: readFileSync(target, 'utf8'), mode: real.mode & 0o7777 };
}

/** Replaces the file's content by renaming a complete new copy over its target: a reader never sees half of it. */
export function replaceSettingsFile(file: SettingsFile, text: string): void {
  mkdirSync(dirname(file.target), { recursive: true });
  replaceWhole(file.target, text, file.mode);
}

/** Whether ctx's backup is there; a backup path that is a link or not a regular file is refused. */
export function hasBackup(backup: string): boolean {
  const st = lstatOrNull(backup);
  if (!st) return false;
  if (st.isSymbolicLink()) throw new BadInputError(`${backup} is a symbolic link, not a backup ctx made: remove it and run again; nothing changed`);
  if (!st.isFile()) throw new BadInputError(`${backup} is not a regular file, not a backup ctx made: remove it and run again; nothing changed`);
  return true;
}

export function readBackup(backup: string): string | null {
  return hasBackup(backup) ? readFileSync(backup, 'utf8') : null;
}

/** Keeps the file as it was before ctx first touched it, with its mode; a later install keeps that one. */
export function writeBackup(backup: string, file: SettingsFile): void {
  if (file.text === null || hasBackup(backup)) return;
  writeNew(backup, file.text, file.mode);
}

/** Removes a file ctx made; a link is kept and its target emptied of ctx's text instead. */
export function removeSettingsFile(file: SettingsFile, rest: string): void {
  if (file.linked) replaceSettingsFile(file, rest);
  else unlinkSync(file.path);
}
