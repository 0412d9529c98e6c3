// api/repo: the store opened (found, created, trusted), the RepoContext every operation takes, and what each write keeps up (timeline, packing).
// What every store operation needs: the repo, its engine and refs, its settings, a clock.
import { hostname, userInfo } from 'node:os';
import { AmbiguousIdError, NotFoundError, UsageError } from '../../errors/index.js';
import { fullId, isHexPrefix, parseSpec, shortId } from '../../core/ids.js';
import { person, type Meta } from '../../core/meta.js';
import type { Engine, EngineName, GitObject, Signature } from '../../store/engine.js';
import { StoreDamage, UnreadableObject } from '../../store/damage.js';
import { createEngine } from '../../store/engine-select.js';
import { findByPrefix, looseType } from '../../store/object-ids.js';
import { parseConfigSize, readConfig } from '../../store/repo.js';
import { userConfigValues } from '../../store/config-files.js';
import { refNameProblem, refs, RefStore } from '../../store/refs.js';
import { DEFAULT_MAX_BLOB, parseMeta } from '../../store/context-commits.js';
import { DEFAULT_AUTO_PACK } from '../../store/gc.js';
import { checkTokenCounter, tokenCounter, type TokenCounter, type TokenCounterName } from '../../core/tokens.js';
import { unknownName } from '../../core/nearest.js';

export interface Defaults {
  principal: string;
  machine: string;
  template: string;
  session: string;
}

export interface RepoOptions {
  engine?: 'auto' | EngineName;
  /** the clock; CTX_NOW fixes it in tests */
  now?: () => Date;
  env?: NodeJS.ProcessEnv;
  /** how meta.json's token_count is estimated; default: the repo's ctx.tokenCount, else cl100k_base */
  tokenCount?: TokenCounterName;
}

export class RepoContext {
  readonly refs: RefStore;
  readonly engine: Engine;
  readonly maxBlobSize: number;
  readonly defaults: Defaults;
  readonly now: () => Date;
  /** the estimator of meta.json's token_count */
  readonly tokenCount: TokenCounterName;
  /** loose objects after a write above which they are packed (`ctx.autoPack`; 0: never) */
  readonly autoPack: number;
  /** the repo's own git config (`section.key`, lower case), read once: settings read on every write come from here */
  readonly config: ReadonlyMap<string, string>;
  /** whether grep and files may answer from the search index (CTX_NO_INDEX=1, or ctx.searchIndex=false: never) */
  readonly searchIndex: boolean;
  /** CTX_INDEX_ALWAYS=1: the index answers even in a store small enough to walk (tests of the index use it) */
  readonly indexAlways: boolean;
  /** Where warnings go, one line each (the CLI: stderr); a library's default is Node's process warning. */
  onWarning: (text: string) => void = (text) => process.emitWarning(text, 'CtxWarning');
  private readonly warned = new Set<string>();

  constructor(readonly gitdir: string, opts: RepoOptions = {}) {
    const env = opts.env ?? process.env;
    const config = (this.config = readConfig(gitdir));
    const engine = opts.engine ?? (env.CTX_ENGINE || config.get('ctx.engine') || 'auto');
    if (!['auto', 'git', 'isogit'].includes(engine)) throw new UsageError(`unknown engine '${engine}' (auto, git, isogit)`);
    this.engine = createEngine(gitdir, engine as 'auto' | EngineName);
    this.refs = new RefStore(gitdir);
    const max = config.get('ctx.maxblobsize');
    // a chunk under 1 KiB makes a tree of millions of blobs; git hosts refuse blobs near 100 MB
    this.maxBlobSize = max ? parseConfigSize('ctx.maxBlobSize', max, 1024, 1024 ** 3) : DEFAULT_MAX_BLOB;
    this.now = opts.now ?? clockFromEnv(env);
    this.autoPack = autoPackThreshold(config.get('ctx.autopack'), userConfigValues(env, 'ctx.autopack').at(-1));
    this.searchIndex = !/^(1|true|yes)$/i.test(env.CTX_NO_INDEX ?? '') && config.get('ctx.searchindex') !== 'false';
    this.indexAlways = /^(1|true|yes)$/i.test(env.CTX_INDEX_ALWAYS ?? '');
    this.tokenCount = opts.tokenCount ?? checkTokenCounter(config.get('ctx.tokencount') || 'cl100k_base');
    this.defaults = {
      principal: env.CTX_PRINCIPAL || safeUser(),
      machine: env.CTX_MACHINE || hostname(),
      template: env.CTX_TEMPLATE || 'agent',
      session: env.CTX_SESSION || '',
    };
  }

  /** The estimator of meta.json's token_count, in this thread (the tokenizer loads on first use). */
  tokenCounter(): Promise<TokenCounter> {
    return tokenCounter(this.tokenCount);
  }

  /** A warning about damage a read went around: each text once per store opened. */
  warn(text: string): void {
    if (this.warned.has(text)) return;
    this.warned.add(text);
    this.onWarning(text);
  }

  signature(principal = this.defaults.principal): Signature {
    return person(principal, this.defaults.machine, this.now());
  }

  /** The local branches' names, for a mistyped one's nearest. */
  private branchNames(): string[] {
    return this.refs.scan(refs.branch('')).refs.map((r) => r.ref.slice(refs.branch('').length));
  }

  /** A commit spec (`ctx-1a2b`, `alice/fix~2`, a tag, bare hex) → full commit id. */
  async resolve(spec: string): Promise<string> {
    const { base, explicitId, ancestor } = parseSpec(spec.trim());
    let oid: string | null = null;
    // checked before any ref is read: a name is never a path out of the store
    const why = explicitId || isHexPrefix(base) ? null : refNameProblem(refs.branch(base));
    if (why !== null) throw new UsageError(`not a commit or branch name: '${spec}' (${why})`);
    if (!explicitId) {
      for (const ref of [...(base === 'HEAD' ? ['HEAD'] : []), refs.branch(base), refs.tag(base), `${refs.remotes}${base}`, ...(base.startsWith('refs/') ? [base] : [])]) {
        oid = this.refs.read(ref);
        if (oid) {
          oid = await this.commitAt(ref === 'HEAD' ? (this.refs.symbolicTarget() ?? ref) : ref, oid);
          break;
        }
      }
    }
    if (!oid) oid = await this.commitOrSession(base, explicitId, spec);
    if (ancestor === 0) return oid;
    const chain = await this.firstParents(oid, ancestor + 1);
    if (chain.length <= ancestor) throw new NotFoundError(`${spec}: the chain has only ${chain.length} commits`);
    return chain[ancestor];
  }

  /**
   * The commit a ref's value names: a tag object is peeled (only a tag can point at one). A ref at
   * a missing object, a blob or a tree is damage of that ref (StoreDamage, exit 5).
   */
  async commitAt(ref: string, oid: string): Promise<string> {
    // most tips are loose (a checkpoint writes them so): their header says "commit" without an engine
    if (looseType(this.gitdir, oid) === 'commit') return oid;
    for (let depth = 0; ; depth++) {
      let o: GitObject | null;
      try {
        o = await this.engine.readObject(oid);
      } catch (e) {
        if (e instanceof UnreadableObject) throw new StoreDamage(ref, `points at ${oid.slice(0, 12)}, which cannot be read, the object store is damaged`, { cause: e });
        throw e;
      }
      if (o?.type === 'commit') return oid;
      const target = o?.type === 'tag' && depth < 5 && !ref.startsWith(refs.heads) ? /^object ([0-9a-f]{40})$/m.exec(Buffer.from(o.data).toString('utf8'))?.[1] : undefined;
      if (target) {
        oid = target;
        continue;
      }
      throw new StoreDamage(ref, `points at ${oid.slice(0, 12)}, which ${o ? `is a ${o.type}, not a commit` : 'is missing'}`);
    }
  }

  /** A commit id prefix, else (not `ctx-…`) a session id or its unique prefix: that session's tip (`ctx current`). */
  private async commitOrSession(base: string, explicitId: boolean, spec: string): Promise<string> {
    let unknown: NotFoundError;
    try {
      if (!isHexPrefix(base)) throw new NotFoundError(unknownName('commit or branch', base, this.branchNames(), `unknown commit or branch: ${spec}`));
      return await this.commitByPrefix(base.toLowerCase(), spec);
    } catch (e) {
      if (!(e instanceof NotFoundError) || explicitId) throw e;
      unknown = e;
    }
    // newest tip first, as `ctx current` chooses when no runtime's live branch is among them
    const [newest] = (await this.sessionTips(base)).sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
    if (!newest) throw unknown;
    return newest.oid;
  }

  /**
   * The branch tips (by name) whose meta.json session_id is `session`, else starts with it; AmbiguousIdError
   * (naming the sessions) when it starts several.
   */
  async sessionTips(session: string): Promise<{ branch: string; oid: string; created_at: string; session: string }[]> {
    const tips = [...this.branchTips(true)];
    const metas = await this.engine.readObjects(tips.map(([, oid]) => `${oid}:meta.json`));
    let found: { branch: string; oid: string; created_at: string; session: string }[] = [];
    tips.forEach(([branch, oid], i) => {
      let m: Meta | null = null;
      try {
        m = metas[i] ? parseMeta(oid, metas[i]!.data) : null;
      } catch {
        // a damaged tip holds no session: verify names it
      }
      if (session !== '' && typeof m?.session_id === 'string' && m.session_id.startsWith(session)) found.push({ branch, oid, created_at: m.created_at, session: m.session_id });
    });
    if (found.some((f) => f.session === session)) found = found.filter((f) => f.session === session);
    const sessions = [...new Set(found.map((f) => f.session))].sort();
    if (sessions.length > 1) throw new AmbiguousIdError(session, sessions);
    return found;
  }

  private async commitByPrefix(prefix: string, spec: string): Promise<string> {
    const found = findByPrefix(this.gitdir, prefix);
    const objs = await this.engine.readObjects(found);
    const commits = found.filter((_, i) => objs[i]?.type === 'commit');
    if (commits.length === 0) throw new NotFoundError(`unknown commit: ${spec}`);
    if (commits.length > 1) throw new AmbiguousIdError(spec, commits.map(shortId));
    return commits[0];
  }

  /** An annotated tag points at its commit. */
  async peel(oid: string): Promise<string> {
    for (let i = 0; i < 5; i++) {
      const o = await this.engine.readObject(oid);
      if (!o || o.type !== 'tag') return oid;
      oid = /^object ([0-9a-f]{40})$/m.exec(Buffer.from(o.data).toString('utf8'))![1];
    }
    return oid;
  }

  /** First-parent ids from `tip`, tip first. */
  async firstParents(tip: string, max?: number): Promise<string[]> {
    return (await this.engine.chain(tip, max)).map((l) => l.oid);
  }

  /** Tips of every branch, name → oid; a damaged branch ref is thrown (StoreDamage), or skipped with `skipDamaged`. */
  branchTips(skipDamaged = false): Map<string, string> {
    return new Map(this.listRefs(refs.heads, skipDamaged).map((r) => [r.ref.slice(refs.heads.length), r.oid]));
  }

  /** Tips of every local and remote-tracking branch (`origin/x`), name → oid, as `git log --all` sees them. */
  allTips(skipDamaged = false): Map<string, string> {
    const remote = this.listRefs(refs.remotes, skipDamaged).map((r) => [r.ref.slice(refs.remotes.length), r.oid] as [string, string]);
    return new Map([...this.branchTips(skipDamaged), ...remote]);
  }

  /** Every local and remote-tracking ref by full name (`refs/heads/x`, `refs/remotes/origin/x`) → oid, in name order, damaged ones skipped; `damaged` says whether one was; `loose`, how many were read from loose files. `looseOnly`: packed-refs not read. */
  scanTips(o: { looseOnly?: boolean } = {}): { refs: Map<string, string>; damaged: boolean; loose: number } {
    const heads = this.refs.scan(refs.heads, o);
    const remotes = this.refs.scan(refs.remotes, o);
    return { refs: new Map([...heads.refs, ...remotes.refs].map((r) => [r.ref, r.oid])), damaged: heads.damaged.length + remotes.damaged.length > 0, loose: heads.loose + remotes.loose };
  }

  private listRefs(prefix: string, skipDamaged: boolean) {
    return skipDamaged ? this.refs.scan(prefix).refs : this.refs.list(prefix);
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}

export function idOf(oid: string | null): string | null {
  return oid === null ? null : fullId(oid);
}

function clockFromEnv(env: NodeJS.ProcessEnv): () => Date {
  const fixed = env.CTX_NOW;
  if (!fixed) return () => new Date();
  const t = new Date(fixed);
  if (Number.isNaN(t.getTime())) throw new UsageError(`CTX_NOW is not a time: ${fixed}`);
  return () => t;
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

/**
 * `ctx.autoPack`: the user's own config (global, system) sets it freely; a store's config may raise it or
 * turn it off (0) but not lower it below the user's value or the default, since a store can come from a stranger.
 */
function autoPackThreshold(fromStore: string | undefined, fromUser: string | undefined): number {
  const floor = fromUser ? parseConfigSize('ctx.autoPack', fromUser, 0, 1e9) : DEFAULT_AUTO_PACK;
  if (!fromStore) return floor;
  const own = parseConfigSize('ctx.autoPack', fromStore, 0, 1e9);
  return own === 0 || floor === 0 ? 0 : Math.max(own, floor);
}
