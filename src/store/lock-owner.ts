// Who holds a lock file ctx made: its pid, the boot it runs in and its start time, so a lock whose
// holder died is taken over at once instead of after a timeout; and locks a process holds are
// removed when it is told to stop (SIGTERM, SIGINT, SIGHUP).
import { closeSync, constants, fstatSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const MARK = 'ctx-lock';

let bootId: string | null | undefined;
function currentBoot(): string | null {
  if (bootId === undefined) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      bootId = null;
    }
  }
  return bootId;
}

/** A process's start time in clock ticks since boot (Linux), or null where /proc does not tell. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name may hold spaces and parentheses: fields are counted after its last ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** What ctx writes into a lock file it creates. */
export function ownerRecord(pid = process.pid): string {
  if (pid === process.pid && own?.pid === pid) return own.record;
  const record = `${MARK} pid=${pid} boot=${currentBoot() ?? '-'} start=${startTime(pid) ?? '-'}\n`;
  if (pid === process.pid) own = { pid, record };
  return record;
}

// this process's record, read from /proc once (a fork's pid differs, and is read anew)
let own: { pid: number; record: string } | undefined;

/**
 * Whether the process that wrote `record` is still alive: false when it is gone (no such pid, another
 * boot, or the pid reused by a later process), true when it may hold the lock, null when the file is
 * not ctx's record (native git's lock, or one ctx is half-way through writing).
 */
export function holderAlive(record: string): boolean | null {
  const m = /^ctx-lock pid=(\d+) boot=(\S+) start=(\S+)\n$/.exec(record);
  if (!m) return null;
  const pid = Number(m[1]);
  const boot = currentBoot();
  if (m[2] !== '-' && boot !== null && m[2] !== boot) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const start = startTime(pid);
  return !(m[3] !== '-' && start !== null && start !== m[3]);
}

/**
 * An empty lock file older than this was left by a writer killed between creating it and writing
 * its record (an older ctx, or another tool): a live one writes right after it creates. ctx links
 * its own locks in whole, never empty.
 */
export const EMPTY_LOCK_GRACE_MS = 2_000;

/** holderAlive for the lock at `path` whose text is `record`; an empty one past its grace is dead. */
function judge(path: string, record: string): boolean | null {
  if (record !== '') return holderAlive(record);
  try {
    return Date.now() - statSync(path).mtimeMs > EMPTY_LOCK_GRACE_MS ? false : null;
  } catch {
    return null;
  }
}

/** A lock's or keep file's record: a regular file of at most 4 KiB, never read through a link or from a device or FIFO a hostile store planted there; null otherwise. */
export function readRecord(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    return st.isFile() && st.size <= 4096 ? readFileSync(fd, 'utf8') : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Removes the lock when ctx's record in it names a process that is gone, or it is an abandoned empty one; true when it did. */
export function breakDeadLock(lock: string): boolean {
  const record = readRecord(lock);
  if (record === null || judge(lock, record) !== false) return false;
  // another writer may have broken it and taken it meanwhile: remove only the record judged dead
  try {
    if (readRecord(lock) === record) unlinkSync(lock);
  } catch {}
  return true;
}

/** Whether the lock's holder lives: see holderAlive (an empty lock past its grace: false); null also when the lock cannot be read. */
export function lockHolderAlive(path: string): boolean | null {
  const record = readRecord(path);
  return record === null ? null : judge(path, record);
}

const held = new Set<string>();
let handlers = false;

/**
 * Makes the lock file at `path` with this process's record already in it: the record is written
 * in `scratch` (a directory on the same file system that no reader lists) and linked in whole, so
 * a holder killed at any moment leaves no lock without one. Throws EEXIST when the lock is held.
 */
export function makeLock(path: string, scratch: string): void {
  guardLocks();
  const record = join(scratch, `${basename(path)}.${process.pid}.rec`);
  writeFileSync(record, ownerRecord());
  try {
    linkSync(record, path);
    holding(path);
  } finally {
    try {
      unlinkSync(record);
    } catch {}
  }
}

/**
 * Takes the lock at `path` if no live process holds it: a dead holder's is taken over at once, one
 * without a readable record (another tool's, or an older ctx's killed while making it) once it is
 * `staleMs` old. Returns its release, or null when it is held.
 */
export function tryLock(path: string, scratch: string, staleMs = 30_000): (() => void) | null {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      makeLock(path, scratch);
      return () => {
        released(path);
        try {
          unlinkSync(path);
        } catch {}
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (breakDeadLock(path)) continue;
      let age = 0;
      try {
        age = Date.now() - statSync(path).mtimeMs;
      } catch {
        continue;
      }
      if (age <= staleMs || lockHolderAlive(path)) return null;
      try {
        unlinkSync(path);
      } catch {}
    }
  }
  return null;
}

/** Remember a lock this process holds, so a signal to stop removes it. */
function holding(path: string): void {
  held.add(path);
}

/**
 * Before a lock is made: a signal to stop then removes this process's locks and exits with the
 * signal's code. (Installed first, so no signal lands between making a lock and guarding it.)
 */
function guardLocks(): void {
  if (handlers) return;
  handlers = true;
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)
    process.once(signal, () => {
      releaseAll();
      process.exit(code);
    });
}

export function released(path: string): void {
  held.delete(path);
}

function releaseAll(): void {
  for (const path of held) {
    try {
      unlinkSync(path);
    } catch {}
  }
  held.clear();
}
