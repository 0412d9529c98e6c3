// api/maintain: keeping a store sound (verify, gc). Imports api/state, api/read and api/repo.
// ctx verify: every artifact's BLAKE3 and size, meta schema, chain sanity.
import { artifactHash } from '../../core/blake3.js';
import { fullId } from '../../core/ids.js';
import { artifactName, metaProblems, parseTrailers } from '../../core/meta.js';
import { knownFormat } from '../../formats/registry.js';
import { readArtifacts, readStoredCommits, type StoredCommit } from '../../store/context-commits.js';
import { personTime } from '../../store/objects.js';
import { StoreDamage, damageLabel } from '../../store/damage.js';
import { readNotes } from '../../store/notes.js';
import { refs } from '../../store/refs.js';
import { CtxError } from '../../errors/index.js';
import type { RepoContext } from '../repo/repo-context.js';
import { verifyStateWrites } from '../state/verify.js';
import { foreignValues } from '../read/read.js';

export interface VerifyProblem {
  /** the commit (`ctx-…`), or what else is damaged: a ref (`refs/heads/x`), `packed-refs`, `object <id>` */
  id: string;
  problem: string;
}

export interface VerifyReport {
  commits: number;
  problems: VerifyProblem[];
}

const BATCH = 256;

/**
 * Checks the chain from `spec` to its root, or every branch's chains; then the annotations on the
 * commits checked. Damaged branch refs, packed-refs and refs/notes/ctx are problems too.
 */
export async function verify(ctx: RepoContext, spec?: string): Promise<VerifyReport> {
  const seen = new Set<string>();
  const problems: VerifyProblem[] = [];
  // one damage met twice (packed-refs, by the branches and by the notes) is one problem
  const damage = (e: unknown) => {
    if (!(e instanceof StoreDamage)) return false;
    const p = problemOf(e);
    if (!problems.some((q) => q.id === p.id && q.problem === p.problem)) problems.push(p);
    return true;
  };
  let tips: string[] = [];
  if (spec === undefined) {
    const heads = ctx.refs.scan(refs.heads);
    heads.damaged.forEach(damage);
    // another tool's branch (a plain git commit) is not ctx's data: named, not walked, no failure
    const values = heads.refs.map((h) => h.oid);
    const foreign = await foreignValues(ctx, heads.refs, values, values);
    for (const h of heads.refs) {
      if (foreign.has(h.oid)) continue;
      try {
        tips.push(await ctx.commitAt(h.ref, h.oid));
      } catch (e) {
        if (!damage(e)) throw e;
      }
    }
    tips = [...new Set(tips)];
  } else tips = [await ctx.resolve(spec)];
  for (const tip of tips) {
    let oids: string[];
    try {
      oids = (await ctx.firstParents(tip)).filter((o) => !seen.has(o));
    } catch (e) {
      if (!damage(e)) problems.push({ id: fullId(tip), problem: `chain is not readable: ${(e as Error).message.split('\n')[0]}` });
      continue;
    }
    oids.forEach((o) => seen.add(o));
    for (let i = 0; i < oids.length; i += BATCH) problems.push(...(await verifyBatch(ctx, oids.slice(i, i + BATCH))));
  }
  try {
    await readNotes(ctx.engine, ctx.refs, [...seen]);
  } catch (e) {
    if (!damage(e)) throw e;
  }
  return { commits: seen.size, problems };
}

/** A commit's damage by its `ctx-` id; a ref's (or packed-refs', or an object's) by its name. */
function problemOf(e: StoreDamage): VerifyProblem {
  return { id: /^[0-9a-f]{40}$/.test(e.subject) ? fullId(e.subject) : e.subject, problem: e.problem };
}

async function verifyBatch(ctx: RepoContext, oids: string[]): Promise<VerifyProblem[]> {
  let stored: StoredCommit[];
  try {
    stored = await readStoredCommits(ctx.engine, oids);
  } catch (e) {
    if (!(e instanceof CtxError)) throw e;
    // one unreadable commit: check them one by one to name it
    if (oids.length > 1) return (await Promise.all(oids.map((o) => verifyBatch(ctx, [o])))).flat();
    return [e instanceof StoreDamage ? problemOf(e) : { id: fullId(oids[0]), problem: e.message.replace(/^ctx-[0-9a-f]+: /, '') }];
  }
  const out: VerifyProblem[] = [];
  const present = stored.filter((s) => s.artifact !== null);
  // read unchecked: verify compares size and BLAKE3 itself, and reports both
  const artifacts = await readArtifacts(ctx.engine, present.map(unclaimed)).catch(() => null);
  for (const s of stored) {
    const bad = (problem: string) => out.push({ id: fullId(s.oid), problem });
    const problems = metaProblems(s.meta);
    problems.forEach(bad);
    if (s.commit.parents.length > 1) bad('has more than one parent');
    if (problems.length) continue;
    const m = s.meta;
    const f = knownFormat(m.format);
    if (!s.artifact) bad('no artifact in the tree');
    else if (f && s.artifact.name !== artifactName(m.type, f.ext)) bad(`artifact is ${s.artifact.name}, expected ${artifactName(m.type, f.ext)}`);
    const t = parseTrailers(s.commit.message);
    const want = { 'Ctx-Type': m.type, 'Ctx-Format': m.format, 'Ctx-Session': m.session_id, 'Ctx-Template': m.template };
    for (const [k, v] of Object.entries(want)) if (t[k] !== v.replace(/\s*\n\s*/g, ' ')) bad(`trailer ${k} does not match meta.json`);
    if (personTime(s.commit.author) !== Math.floor(Date.parse(m.created_at) / 1000)) bad('author time does not match created_at');
    const i = present.indexOf(s);
    if (i < 0) continue;
    if (!artifacts) {
      out.push(...(await verifyArtifactAlone(ctx, s)));
      continue;
    }
    out.push(...(await checkArtifact(s, artifacts[i])));
  }
  out.push(...(await verifyStateWrites(ctx, stored)));
  return out;
}

const unclaimed = (s: StoredCommit) => ({ oid: s.oid, artifact: s.artifact });

async function verifyArtifactAlone(ctx: RepoContext, s: StoredCommit): Promise<VerifyProblem[]> {
  try {
    return checkArtifact(s, (await readArtifacts(ctx.engine, [unclaimed(s)]))[0]);
  } catch (e) {
    return [{ id: fullId(s.oid), problem: (e as Error).message.replace(/^ctx-[0-9a-f]+: /, '') }];
  }
}

async function checkArtifact(s: StoredCommit, bytes: Uint8Array): Promise<VerifyProblem[]> {
  const out: VerifyProblem[] = [];
  if (bytes.length !== s.meta.artifact_size) out.push({ id: fullId(s.oid), problem: `artifact is ${bytes.length} bytes, meta.json says ${s.meta.artifact_size}` });
  if ((await artifactHash(bytes)) !== s.meta.artifact) out.push({ id: fullId(s.oid), problem: 'artifact does not match its BLAKE3 in meta.json' });
  return out;
}

export function describeProblem(p: VerifyProblem): string {
  return `${damageLabel(p.id)}: ${p.problem}`;
}
