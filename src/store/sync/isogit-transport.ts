// Transport without the git binary: HTTP(S) in-process through isomorphic-git, designed around its
// measured limits: push sends one ref per call (protocol v1), fetch takes no refspec and fetches one
// ref per call with one local ref as its base, and fetch writes the tracking ref before the pack is
// saved (so every ref it touches is checked afterwards and put back if its objects are missing).
import fs from 'node:fs';
import { RemoteError } from '../../errors/index.js';
import type { Engine } from '../engine.js';
import { refs, type RefStore } from '../refs.js';
import { hasObject } from '../commit-graph.js';
import { redact, type Remote } from './remotes.js';
import { checkAdvertisedRef, syncedRefs, type FetchRejection, type PushResult, type Transport, type TransportOptions } from './transport-interface.js';

type IsoGit = typeof import('isomorphic-git').default;
type AuthCallback = (url: string) => { username?: string; password?: string; cancel?: boolean } | void;

export async function createIsogitTransport(gitdir: string, remote: Remote, engine: Engine, refStore: RefStore, opts: TransportOptions): Promise<Transport> {
  const git: IsoGit = (await import('isomorphic-git')).default;
  const http = checkedAdvertisement((await import('isomorphic-git/http/node')).default, remote);
  const url = remote.url;
  const token = opts.env.CTX_TOKEN || opts.env.GIT_TOKEN;
  const userInUrl = /^[a-z]+:\/\/([^/@:]+)(?::[^/@]*)?@/i.exec(url)?.[1];
  // a token from the environment; credentials written in the URL are used by isomorphic-git itself
  const onAuth: AuthCallback = () => (token ? { username: userInUrl ?? 'x-access-token', password: token } : undefined);
  const onAuthFailure: AuthCallback = () => ({ cancel: true });
  // one cache for every call: it holds parsed pack indexes, without which packed reads crawl
  const cache = {};
  const common = { http, url, onAuth, onAuthFailure };
  const show = (text: string) => opts.onProgress?.(text);
  const onProgress = (p: { phase: string; loaded: number; total?: number }) => show(`${p.phase} ${p.loaded}${p.total ? `/${p.total}` : ''}`);
  // a RemoteError of our own (a bad advertised name) is already the message
  const fail = (what: string, e: unknown) => (e instanceof RemoteError ? e : new RemoteError(`${what} ${remote.name} (${redact(url)}) failed: ${redact(messageOf(e))}`));

  return {
    name: 'isogit',

    async list() {
      try {
        const all = await git.listServerRefs({ ...common, protocolVersion: 1 });
        return syncedRefs(remote, all.map((r) => [r.ref, r.oid] as [string, string]));
      } catch (e) {
        throw fail('listing', e);
      }
    },

    // one call per ref: isomorphic-git pushes one ref at a time (no atomic push without git)
    async push(updates) {
      const out: PushResult[] = [];
      let fatal: RemoteError | null = null;
      for (const [i, u] of updates.entries()) {
        if (fatal) {
          out.push({ dst: u.dst, ok: false, reason: fatal.message });
          continue;
        }
        show(`pushing ${u.dst} (${i + 1}/${updates.length})`);
        try {
          const r = await git.push({ fs, gitdir, cache, ...common, ref: u.src, remoteRef: u.dst, force: false, onProgress });
          const ref = r.refs?.[u.dst];
          const ok = r.ok && ref?.ok !== false;
          out.push({ dst: u.dst, ok, reason: ok ? undefined : redact(ref?.error ?? r.error ?? 'refused') });
        } catch (e) {
          const code = (e as { code?: string }).code;
          if (code === 'PushRejectedError') out.push({ dst: u.dst, ok: false, reason: String((e as { data?: { reason?: string } }).data?.reason ?? 'rejected') });
          else {
            fatal = fail('push to', e);
            out.push({ dst: u.dst, ok: false, reason: fatal.message });
          }
        }
      }
      return out;
    },

    async fetch(remoteRefs) {
      const rejected: FetchRejection[] = [];
      const todo = [...remoteRefs].map(([ref, oid]) => ({ ref, oid, dst: trackingRef(remote.name, ref) }));
      for (const [i, t] of todo.entries()) {
        const before = refStore.read(t.dst);
        if (before === t.oid) continue;
        if (t.ref.startsWith(refs.tags) && before !== null) {
          rejected.push({ ref: t.dst, reason: 'would clobber existing tag' });
          continue;
        }
        if (!(await hasObject(engine, t.oid))) {
          show(`fetching ${t.ref} (${i + 1}/${todo.length})`);
          // the base tells the server what we have: without one it sends the whole history again
          const base = before ? t.dst : localBase(refStore, t.ref);
          try {
            await git.fetch({ fs, gitdir, cache, ...common, remote: remote.name, ref: base ?? t.ref, remoteRef: t.ref, singleBranch: true, tags: false, onProgress });
          } catch (e) {
            if ((e as { code?: string }).code === 'NoRefspecError') throw new RemoteError(`remote.${remote.name}.fetch is not set`, { hint: `git config -f <store>/config --add remote.${remote.name}.fetch '${refs.fetchSpecs(remote.name).heads}'` });
            throw fail('fetch from', e);
          } finally {
            await restoreIfMissing(engine, refStore, t.dst, before);
          }
          if (!(await hasObject(engine, t.oid))) throw new RemoteError(`fetch from ${remote.name}: ${t.ref} arrived without its objects`);
        }
        const now = refStore.read(t.dst);
        if (now !== t.oid) refStore.update(t.dst, t.oid, now);
      }
      return rejected;
    },
  };
}

/** Where a remote ref lands locally. */
function trackingRef(remote: string, ref: string): string {
  if (ref.startsWith(refs.heads)) return refs.remoteBranch(remote, ref.slice(refs.heads.length));
  if (ref === refs.notes) return refs.remoteNotes(remote);
  return ref; // tags keep their name
}

/** A local ref close to what is being fetched: the same branch, our notes, else any branch. */
function localBase(refStore: RefStore, ref: string): string | null {
  const candidates = [ref.startsWith(refs.heads) ? ref : null, ref === refs.notes ? refs.notes : null];
  for (const c of candidates) if (c && refStore.read(c)) return c;
  return refStore.list(refs.heads)[0]?.ref ?? null;
}

/** isomorphic-git writes the tracking ref before the pack: never leave a ref to objects we do not have. */
async function restoreIfMissing(engine: Engine, refStore: RefStore, ref: string, before: string | null) {
  const now = refStore.read(ref);
  if (now === null || now === before || (await hasObject(engine, now))) return;
  if (before === null) refStore.delete(ref, now);
  else refStore.update(ref, before, now);
}

function messageOf(e: unknown): string {
  const err = e as { message?: string; data?: { statusCode?: number; statusMessage?: string } };
  if (err?.data?.statusCode) return `HTTP ${err.data.statusCode} ${err.data.statusMessage ?? ''}`.trim();
  return err?.message ?? String(e);
}

type HttpClient = Awaited<typeof import('isomorphic-git/http/node')>['default'];

/**
 * Every ref advertisement isomorphic-git reads passes through here: each name (and symref target)
 * is checked before isomorphic-git can write a ref from it, since the server advertises again on
 * every call. And its fetch fails with "Could not find HEAD" on a remote whose HEAD is unborn (a
 * fresh server repo whose default branch was never pushed), after writing the tracking ref and
 * before saving the pack: a HEAD line is added to such an advertisement, pointing at the first ref.
 */
function checkedAdvertisement(http: HttpClient, remote: Remote): HttpClient {
  return {
    async request(req) {
      const res = await http.request(req);
      const service = /\/info\/refs\?service=(git-upload-pack|git-receive-pack)$/.exec(req.url)?.[1];
      if (req.method !== 'GET' || !service || res.statusCode !== 200 || !res.body) return res;
      const chunks: Uint8Array[] = [];
      for await (const c of res.body) chunks.push(c);
      const lines = pktLines(Buffer.concat(chunks));
      if (lines) checkRefLines(remote, lines);
      const body = lines && service === 'git-upload-pack' ? addHead(lines) : Buffer.concat(chunks);
      return { ...res, body: [body][Symbol.iterator]() as never };
    },
  };
}

/** pkt-lines (null for a flush), or null when the body is not pkt-lines. */
function pktLines(buf: Buffer): (Buffer | null)[] | null {
  const lines: (Buffer | null)[] = [];
  for (let i = 0; i + 4 <= buf.length; ) {
    const len = parseInt(buf.toString('latin1', i, i + 4), 16);
    if (Number.isNaN(len) || (len > 0 && len < 4)) return null;
    lines.push(len === 0 ? null : buf.subarray(i + 4, i + len));
    i += len === 0 ? 4 : len;
  }
  return lines;
}

const isRefLine = (l: Buffer | null): l is Buffer => l !== null && /^[0-9a-f]{40} /.test(l.toString('latin1', 0, 41));
const refOf = (l: Buffer) => l.toString('utf8', 41).replace(/[\0\n].*$/s, '');

/** `<oid> <ref>[\0<caps>]`: each ref, and each `symref=<from>:<to>` of the capabilities. */
function checkRefLines(remote: Remote, lines: readonly (Buffer | null)[]) {
  for (const l of lines) {
    if (!isRefLine(l)) continue;
    checkAdvertisedRef(remote, refOf(l));
    const text = l.toString('utf8', 41);
    const nul = text.indexOf('\0');
    if (nul < 0) continue;
    for (const cap of text.slice(nul + 1).trim().split(' ')) {
      const m = /^symref=([^:]*):(.*)$/.exec(cap);
      if (m) for (const name of [m[1], m[2]]) checkAdvertisedRef(remote, name);
    }
  }
}

/** `# service=…`, flush, `<oid> <ref>\0<caps>`, `<oid> <ref>`…, flush: with a HEAD line when there is none. */
function addHead(lines: (Buffer | null)[]): Buffer {
  const first = lines.findIndex(isRefLine);
  const encode = () => Buffer.concat(lines.map((l) => (l === null ? Buffer.from('0000') : Buffer.concat([Buffer.from((l.length + 4).toString(16).padStart(4, '0')), l]))));
  if (first < 0 || lines.some((l) => isRefLine(l) && refOf(l) === 'HEAD')) return encode();
  const line = lines[first]!.toString('latin1');
  const [oid, rest] = [line.slice(0, 40), line.slice(41)];
  if (/^0{40}$/.test(oid)) return encode(); // no refs at all
  const nul = rest.indexOf('\0');
  const caps = nul < 0 ? '\n' : rest.slice(nul);
  lines.splice(first, 1, Buffer.from(`${oid} HEAD${caps}`, 'latin1'), Buffer.from(`${oid} ${nul < 0 ? rest : `${rest.slice(0, nul)}\n`}`, 'latin1'));
  return encode();
}
