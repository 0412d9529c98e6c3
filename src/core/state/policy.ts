// Who may write where: agent → namespaces (`*`: every namespace, and the policy itself). Stored in
// the state tree (`state/.policy.json`), so it is versioned and travels with the branch.
import { canonicalJson } from '../canonical-json.js';

export type Policy = Record<string, string[]>;

/** The REAS AgentContext's default permission table, which `ctx state init` writes. */
export const DEFAULT_POLICY: Policy = {
  context_synthesizer: ['enrichment', 'diagnostics', 'audit'],
  inference: ['reasoning', 'enrichment', 'llm', 'diagnostics', 'audit'],
  intent_detection: ['reasoning', 'diagnostics', 'audit'],
  orchestrator: ['*'],
  reasoning_structure: ['reasoning', 'diagnostics', 'audit'],
  retrieval_planner: ['retrieval', 'diagnostics', 'audit'],
  summarization: ['reasoning', 'diagnostics', 'audit'],
  validation: ['diagnostics', 'audit'],
};

/** The namespace any agent of the policy may write one key of (`metadata.locale`); the rest of it: `*` only. */
const METADATA = 'metadata';
const OPEN_METADATA_KEY = 'locale';

/** The namespaces `agent` may write; undefined when it is not in the policy (an own entry only: `constructor` is no grant). */
export const grantOf = (policy: Policy, agent: string): string[] | undefined => (Object.hasOwn(policy, agent) ? policy[agent] : undefined);

export const isAdmin = (policy: Policy, agent: string) => grantOf(policy, agent)?.includes('*') ?? false;

/** Whether `agent` may write `namespace.key` under `policy`. */
export function mayWrite(policy: Policy, agent: string, namespace: string, key: string): boolean {
  const allowed = grantOf(policy, agent);
  if (!allowed) return false;
  if (allowed.includes('*')) return true;
  if (namespace === METADATA) return key === OPEN_METADATA_KEY;
  return allowed.includes(namespace);
}

/** What `agent` may write, for a refusal: `reasoning, diagnostics, audit`, or `nothing (not in the policy)`. */
export function describeGrant(policy: Policy, agent: string): string {
  const a = grantOf(policy, agent);
  return a ? `${a.join(', ')}${a.includes('*') ? '' : ', metadata.locale'}` : 'nothing (not in the policy)';
}

export function encodePolicy(policy: Policy): string {
  return `${canonicalJson({ v: 1, agents: policy })}\n`;
}

/** `state/.policy.json` → the policy; null when it is not one. */
export function parsePolicy(text: string): Policy | null {
  try {
    const o = JSON.parse(text) as { v?: unknown; agents?: unknown };
    if (o.v !== 1 || !o.agents || typeof o.agents !== 'object' || Array.isArray(o.agents)) return null;
    const agents = o.agents as Record<string, unknown>;
    if (Object.hasOwn(agents, '__proto__')) return null;
    if (Object.values(agents).some((l) => !Array.isArray(l) || l.some((n) => typeof n !== 'string'))) return null;
    return agents as Policy;
  } catch {
    return null;
  }
}
