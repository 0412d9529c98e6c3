// What live capture reads from the repo and the disk besides the new bytes: the tip's meta.json
// (when the derived state is gone), whole chains (forks, subagent spawn points).
import { IntegrityError } from '../../errors/index.js';
import { artifactName, isSyntheticCompaction, type Meta } from '../../core/meta.js';
import type { RepoContext } from '../../api/repo-context.js';
import { parseMeta, readArtifacts, readArtifactsAt, readEntries } from '../../store/context-commits.js';
import { storageFormat } from '../../formats/registry.js';

export async function readTipMeta(ctx: RepoContext, tip: string): Promise<Meta> {
  const [blob] = await ctx.engine.readObjects([`${tip}:meta.json`]);
  if (!blob) throw new IntegrityError(`ctx-${tip.slice(0, 12)}: meta.json is missing`);
  return parseMeta(tip, blob.data);
}

/** The newest commit at or before `tip` that holds transcript bytes: compactions `ctx compact` wrote are passed over. */
export async function readSourceMeta(ctx: RepoContext, tip: string): Promise<{ oid: string; meta: Meta }> {
  let oid = tip;
  let meta = await readTipMeta(ctx, oid);
  while (isSyntheticCompaction(meta) && typeof meta.source?.of === 'string') {
    oid = meta.source.of.replace(/^ctx-/, '');
    meta = await readTipMeta(ctx, oid);
  }
  return { oid, meta };
}

export async function readArtifactAt(ctx: RepoContext, oid: string, meta: Meta): Promise<Uint8Array> {
  const spec = `${oid}:${artifactName(meta.type, storageFormat(meta.format).ext)}`;
  return (await readArtifactsAt(ctx.engine, [{ oid, spec }]))[0];
}

export interface ChainCommit {
  oid: string;
  meta: Meta;
  artifact: Uint8Array;
}

/** The first-parent chain from `tip` with metadata and artifacts, oldest first. */
export async function chainWithArtifacts(ctx: RepoContext, tip: string): Promise<ChainCommit[]> {
  const links = await ctx.engine.chain(tip);
  const entries = await readEntries(ctx.engine, links);
  const artifacts = await readArtifacts(ctx.engine, entries);
  return entries.map((e, i) => ({ oid: e.oid, meta: e.meta, artifact: artifacts[i] })).reverse();
}

/**
 * The main-chain commit that spawned a subagent: the one holding the assistant line whose Task/Agent
 * tool_use started it (named by `sourceToolAssistantUUID` on the agent's first line, or on the main
 * file's tool result that carries `agentId`), else the one holding the agent's `parentUuid`; else the tip.
 */
export async function findSpawnCommit(ctx: RepoContext, mainTip: string, agentId: string, agentBytes: Uint8Array): Promise<string> {
  const chain = (await chainWithArtifacts(ctx, mainTip)).reverse();
  const holding = (needle: string) => {
    const n = Buffer.from(needle);
    for (const c of chain) {
      const at = Buffer.from(c.artifact.buffer, c.artifact.byteOffset, c.artifact.byteLength).indexOf(n);
      if (at >= 0) return { oid: c.oid, artifact: c.artifact, at };
    }
    return null;
  };
  const byUuid = (uuid: unknown) => (typeof uuid === 'string' ? holding(`"uuid":${JSON.stringify(uuid)}`)?.oid : undefined);
  const first = firstLine(agentBytes);
  const direct = byUuid(first.sourceToolAssistantUUID);
  if (direct) return direct;
  const result = holding(`"agentId":${JSON.stringify(agentId)}`);
  if (result) {
    const line = firstLine(lineAround(result.artifact, result.at));
    return byUuid(line.sourceToolAssistantUUID) ?? byUuid(line.parentUuid) ?? result.oid;
  }
  return byUuid(first.parentUuid) ?? mainTip;
}

function lineAround(bytes: Uint8Array, at: number): Uint8Array {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return b.subarray(b.lastIndexOf(0x0a, at) + 1);
}

function firstLine(bytes: Uint8Array): Record<string, unknown> {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nl = b.indexOf(0x0a);
  try {
    const v = JSON.parse(b.toString('utf8', 0, nl < 0 ? b.length : nl));
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

