// reasoning-v1: the REAS AgentContext (seeds/004) as a JSON Schema (draft 2020-12). JSON keys are
// the snake_case of its Go fields. Bundled into the package with the code that reads it.
const str = { type: 'string' } as const;
const strs = { type: 'array', items: str } as const;
const num = { type: 'number' } as const;
const int = { type: 'integer' } as const;
const confidence = { type: 'number', minimum: 0, maximum: 1 } as const;
const obj = { type: 'object' } as const;
const list = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'array', items: { type: 'object', properties, required, additionalProperties: false } });
const ns = (properties: Record<string, unknown>) => ({ type: 'object', properties, additionalProperties: false });

export const reasoningV1 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'reasoning-v1',
  title: 'REAS AgentContext, version 1',
  type: 'object',
  properties: {
    metadata: ns({ session_id: str, trace_id: str, created_at: str, locale: str }),
    reasoning: ns({
      intents: list({ type: str, confidence, entities: strs }, ['type']),
      entities: obj,
      hypotheses: list({ id: str, description: str, dependencies: strs }, ['id']),
      conclusions: list({ id: str, content: str, confidence, based_on: strs }, ['id']),
      dependency_map: {},
      confidence_scores: { type: 'object', additionalProperties: confidence },
      summary: str,
    }),
    enrichment: ns({
      facts: list({ id: str, content: str, source: str, timestamp: str, confidence, provenance: obj }, ['id']),
      derived_knowledge: list({ id: str, content: str, derived_from: strs }, ['id']),
      relationships: list({ from: str, to: str, type: str }, ['from', 'to', 'type']),
      context_links: strs,
    }),
    retrieval: ns({
      plans: list({ id: str, description: str, sources: strs, filters: obj, priority: int }, ['id']),
      queries: list({ id: str, query_string: str, source: str, filters: obj, results: {} }, ['id']),
      artifacts: list({ id: str, type: str, content: {}, source: str }, ['id']),
    }),
    llm: ns({
      provider: str,
      model: str,
      usage: {
        type: 'object',
        properties: { total_tokens: int, prompt_tokens: int, completion_tokens: int, cost_usd: num, by_agent: { type: 'object', additionalProperties: num } },
        additionalProperties: false,
      },
      decisions: list({ timestamp: str, agent_id: str, task_type: str, selected: str, reason: str, complexity: str }),
      cache: obj,
    }),
    diagnostics: ns({
      errors: list({ timestamp: str, agent_id: str, message: str, severity: str, details: {} }, ['message']),
      warnings: list({ timestamp: str, agent_id: str, message: str }, ['message']),
      performance: {
        type: 'object',
        properties: {
          total_duration_ms: int,
          agent_metrics: {
            type: 'object',
            additionalProperties: { type: 'object', properties: { duration_ms: int, llm_calls: int, status: str, tokens: int, cost: num }, additionalProperties: false },
          },
        },
        additionalProperties: false,
      },
      validation_reports: list({ timestamp: str, agent_id: str, passed: { type: 'boolean' }, issues: strs, auto_fixes: strs }, ['passed']),
    }),
    audit: ns({
      agent_runs: list({ timestamp: str, agent_id: str, status: str, duration_ms: int, keys_written: strs, error: str }, ['agent_id']),
      diffs: list({ timestamp: str, agent_id: str, changes: obj }, ['agent_id']),
    }),
  },
  additionalProperties: false,
};

// TypeScript types of reasoning-v1, for the library (`store.state(branch).get('reasoning')`).
export interface Intent { type: string; confidence?: number; entities?: string[] }
export interface Hypothesis { id: string; description?: string; dependencies?: string[] }
export interface Conclusion { id: string; content?: string; confidence?: number; based_on?: string[] }
export interface Fact { id: string; content?: string; source?: string; timestamp?: string; confidence?: number; provenance?: Record<string, unknown> }
export interface Knowledge { id: string; content?: string; derived_from?: string[] }
export interface Relationship { from: string; to: string; type: string }
export interface RetrievalPlan { id: string; description?: string; sources?: string[]; filters?: Record<string, unknown>; priority?: number }
export interface Query { id: string; query_string?: string; source?: string; filters?: Record<string, unknown>; results?: unknown }
export interface Artifact { id: string; type?: string; content?: unknown; source?: string }
export interface LlmUsage { total_tokens?: number; prompt_tokens?: number; completion_tokens?: number; cost_usd?: number; by_agent?: Record<string, number> }
export interface LlmDecision { timestamp?: string; agent_id?: string; task_type?: string; selected?: string; reason?: string; complexity?: string }
export interface ErrorReport { timestamp?: string; agent_id?: string; message: string; severity?: string; details?: unknown }
export interface Warning { timestamp?: string; agent_id?: string; message: string }
export interface AgentMetrics { duration_ms?: number; llm_calls?: number; status?: string; tokens?: number; cost?: number }
export interface ValidationReport { timestamp?: string; agent_id?: string; passed: boolean; issues?: string[]; auto_fixes?: string[] }
export interface AgentRun { timestamp?: string; agent_id: string; status?: string; duration_ms?: number; keys_written?: string[]; error?: string }
export interface ContextDiff { timestamp?: string; agent_id: string; changes?: Record<string, unknown> }

export interface ReasoningV1 {
  metadata: { session_id?: string; trace_id?: string; created_at?: string; locale?: string };
  reasoning: {
    intents?: Intent[];
    entities?: Record<string, unknown>;
    hypotheses?: Hypothesis[];
    conclusions?: Conclusion[];
    dependency_map?: unknown;
    confidence_scores?: Record<string, number>;
    summary?: string;
  };
  enrichment: { facts?: Fact[]; derived_knowledge?: Knowledge[]; relationships?: Relationship[]; context_links?: string[] };
  retrieval: { plans?: RetrievalPlan[]; queries?: Query[]; artifacts?: Artifact[] };
  llm: { provider?: string; model?: string; usage?: LlmUsage; decisions?: LlmDecision[]; cache?: Record<string, unknown> };
  diagnostics: { errors?: ErrorReport[]; warnings?: Warning[]; performance?: { total_duration_ms?: number; agent_metrics?: Record<string, AgentMetrics> }; validation_reports?: ValidationReport[] };
  audit: { agent_runs?: AgentRun[]; diffs?: ContextDiff[] };
}
