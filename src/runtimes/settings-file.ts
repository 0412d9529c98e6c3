// The one writer of a runtime's settings (settings.json, config.toml), which may sit in a directory a
// cloned repository filled: nothing is opened through a link the repository planted, a temporary file
// is new (O_EXCL|O_NOFOLLOW, a random name beside its target), the file keeps its mode, and a linked
// settings file is edited where it points.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { BadInputError } from '../errors/index.js';

/** A settings file as read: `target` is what gets written (the link's target when `path` is a link). */
export interface SettingsFile {
  path: string;
  target: string;
  linked: boolean;
  text: string | null;
  /** permission bits to keep; null for a file that is not there yet */
  mode: number | null;
}

const NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
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
  const dir = dirname(file.target);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file.target)}.${randomBytes(8).toString('hex')}.ctx-tmp`);
  writeNew(tmp, text, file.mode);
  try {
    renameSync(tmp, file.target);
  } catch (e) {
    unlinkSync(tmp);
    throw e;
  }
}

/** Creates `path` with `text`; it must not exist (not even as a link). `mode` null: the umask's default. */
function writeNew(path: string, text: string, mode: number | null): void {
  const fd = openSync(path, NEW, mode ?? 0o666);
  let done = false;
  try {
    if (mode !== null) fchmodSync(fd, mode); // the umask narrowed what open gave it
    writeFileSync(fd, text);
    fsyncSync(fd);
    done = true;
  } finally {
    closeSync(fd);
    if (!done) unlinkSync(path);
  }
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
