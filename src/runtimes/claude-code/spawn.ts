// The main-chain commit that spawned a subagent: where the subagent's branch starts.
import { chainWithArtifacts } from '../../api/read/context-reader.js';
import type { RepoContext } from '../../api/repo/repo-context.js';

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

