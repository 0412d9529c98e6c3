// `ctx push`: every ref the remote lacks or is behind on, fast-forward only, after a secret scan of what
// is new to it. Loads little: a push that finds the remote equal to us lists it once and stops; the
// scan (its rules and readers) is loaded only when something is sent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAncestor } from '../../store/commit-graph.js';
import { parseGitConfig } from '../../store/config-parse.js';
import { refs } from '../../store/refs.js';
import type { PushUpdate } from '../../store/sync/transport.js';
import type { RepoContext } from '../repo/repo-context.js';
import { open, report, shortRef } from './remote-open.js';
import type { RefReport, SyncOptions, SyncReport } from './sync-types.js';

/** A scratch fork: what `ctx fork ID` makes when given no name. A push leaves these out unless asked. */
export const SCRATCH_FORKS = `${refs.heads}fork/`;

/** Local refs a push sends: branches (scratch forks only with `all`), saved-session tags, annotations; and the forks held back. */
function pushable(ctx: RepoContext, all: boolean) {
  const notes = ctx.refs.read(refs.notes);
  const heads = ctx.refs.list(refs.heads);
  const held = all ? [] : heads.filter((h) => h.ref.startsWith(SCRATCH_FORKS));
  const send = [...heads.filter((h) => all || !h.ref.startsWith(SCRATCH_FORKS)), ...ctx.refs.list(refs.tags), ...(notes ? [{ ref: refs.notes, oid: notes }] : [])];
  return { send, held: held.map((h) => h.ref.slice(refs.heads.length)) };
}

/** The remote-tracking ref a pushed ref updates, or null for tags (they keep their name). */
function trackingOf(remote: string, ref: string): string | null {
  if (ref.startsWith(refs.heads)) return refs.remoteBranch(remote, ref.slice(refs.heads.length));
  if (ref === refs.notes) return refs.remoteNotes(remote);
  return null;
}

/**
 * The remote-tracking refs `git push` writes itself: those its fetch refspecs in the store's own config
 * map (`ctx remote add` writes both), as a fetch would. The rest (a remote git added, a config with
 * includes) ctx checks and writes, one read per ref.
 */
function trackedByGit(gitdir: string, remote: string): (tracking: string) => boolean {
  let entries: [string, string][];
  try {
    entries = parseGitConfig(readFileSync(join(gitdir, 'config'), 'utf8')).entries;
  } catch {
    return () => false;
  }
  if (entries.some(([k]) => k === 'include.path' || /^includeif\..*\.path$/.test(k))) return () => false;
  const specs = new Set(entries.filter(([k]) => k === `remote.${remote}.fetch`).map(([, v]) => v));
  const { heads, notes } = refs.fetchSpecs(remote);
  return (tracking) => (tracking.startsWith(refs.remotePrefix(remote)) ? specs.has(heads) : tracking === refs.remoteNotes(remote) && specs.has(notes));
}

/** Push: list the remote once, classify every ref, scan what is new to it, send in one `git push --atomic`. */
export async function push(ctx: RepoContext, name: string | undefined, opts: SyncOptions = {}): Promise<SyncReport> {
  const { remote, t } = await open(ctx, name, opts);
  // our refs are read while the remote is listed
  const listing = t.list();
  const { send, held } = pushable(ctx, opts.all === true);
  const theirs = await listing;
  const out: RefReport[] = [];
  const updates: PushUpdate[] = [];
  const base = (ref: string, old: string | null, oid: string) => ({ ref, local: ref, old, new: oid, diverged: false });
  for (const { ref, oid } of send) {
    const old = theirs.get(ref) ?? null;
    if (old === oid) out.push({ ...base(ref, old, oid), status: 'up to date', ok: true });
    else if (old !== null && ref.startsWith(refs.tags)) {
      out.push({ ...base(ref, old, oid), status: 'rejected: tag exists', ok: false, hint: `the remote's tag ${shortRef(ref)} is another commit; a tag never moves: save under another name` });
    } else if (old !== null && !(await isAncestor(ctx.engine, old, oid))) {
      const hint =
        ref === refs.notes
          ? `ctx fetch ${remote.name} merges both sides' annotations; then push again`
          : `ctx fetch ${remote.name}: both tips are kept (yours on ${shortRef(ref)}, theirs on ${remote.name}/${shortRef(ref)}); fork one to push it under another name`;
      out.push({ ...base(ref, old, oid), status: 'rejected: diverged', ok: false, diverged: true, hint });
    } else {
      updates.push({ src: ref, dst: ref, oid, old });
      out.push({ ...base(ref, old, oid), status: old === null ? 'new' : 'fast-forward', ok: true });
    }
  }
  // the remote equals us (or refuses all): nothing to scan or send, nothing more to load
  if (updates.length === 0) return { ...report(remote, t, out), ...(held.length ? { held } : {}) };
  if (!opts.allowSecrets) await (await import('./push-secrets.js')).scanOutgoing(ctx, updates, theirs);
  // a namespace with nothing refused may go as one glob: every ref in it is an update or up to date
  const globs = [refs.heads, refs.tags]
    .filter((ns) => !out.some((r) => r.ref.startsWith(ns) && !r.ok))
    .map((prefix) => ({ prefix, ...(prefix === refs.heads && held.length ? { except: SCRATCH_FORKS } : {}) }));
  const results = new Map((await t.push(updates, globs)).map((r) => [r.dst, r]));
  const written = t.name === 'git' ? trackedByGit(ctx.gitdir, remote.name) : () => false;
  for (const r of out) {
    const res = results.get(r.ref);
    if (!res) continue;
    if (!res.ok) {
      Object.assign(r, { status: `rejected: ${res.reason ?? 'refused'}`, ok: false, hint: `ctx fetch ${remote.name}, then push again` });
      continue;
    }
    // what we know the remote holds now, as git does after a push (the git binary already wrote it: no second lock)
    const tracking = trackingOf(remote.name, r.ref);
    if (tracking && written(tracking)) continue;
    const known = tracking && r.new ? ctx.refs.read(tracking) : r.new;
    if (tracking && r.new && known !== r.new) ctx.refs.update(tracking, r.new, known);
  }
  return { ...report(remote, t, out), ...(held.length ? { held } : {}) };
}

