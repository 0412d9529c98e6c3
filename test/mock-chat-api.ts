// A mock OpenAI Chat Completions API on 127.0.0.1 (port 0) for agent CLIs that speak it (opencode
// through @ai-sdk/openai-compatible, pi's `openai-completions`): every POST …/chat/completions is
// recorded and answered, streamed over SSE when asked, with what the test's script gives.
import { createServer, type Server } from 'node:http';
import { listenLocal, readBody } from './mock-http.js';

/** One answer: text, and tool calls (`arguments` a JSON string, as the API sends them). */
export interface ChatAnswer {
  text?: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
}

export interface MockRequest {
  method: string;
  url: string;
  body: Record<string, unknown>;
}

export interface MockChat {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** every POST to …/chat/completions, in order */
  requests: MockRequest[];
  close(): Promise<void>;
}

/** The script: the request's body (and its index among the completions requests) → the answer. */
export type ChatScript = (body: Record<string, unknown>, n: number) => ChatAnswer;

export const text = (t: string): ChatAnswer => ({ text: t });
export const toolCall = (id: string, name: string, args: unknown): ChatAnswer => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

/** The messages of a request. */
export const messagesOf = (body: Record<string, unknown>) => (Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : []);

/** A tool call first (when the last message is not a tool result), then `t`: one turn with one tool round trip. */
export function toolThenText(callId: (n: number) => string, name: string, args: unknown, t: (n: number) => string): ChatScript {
  return (body, n) => (messagesOf(body).at(-1)?.role === 'tool' ? text(t(n)) : toolCall(callId(n), name, args));
}

/** `promptTokens(n)`: the prompt tokens the n-th response reports (past a model's context, agents compact). */
export async function startMockChat(script: ChatScript, opts: { promptTokens?: (n: number, body: Record<string, unknown>) => number } = {}): Promise<MockChat> {
  const requests: MockRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {}
    if (req.method === 'POST' && /\/chat\/completions$/.test(req.url ?? '')) {
      const n = requests.length;
      requests.push({ method: req.method, url: req.url ?? '', body });
      const answer = script(body, n);
      const prompt = opts.promptTokens?.(n, body) ?? 10;
      const usage = { prompt_tokens: prompt, completion_tokens: 5, total_tokens: prompt + 5 };
      const id = `chatcmpl-${n}`;
      const model = typeof body.model === 'string' ? body.model : 'mock-model';
      const calls = (answer.toolCalls ?? []).map((c, index) => ({ index, id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
      const finish = calls.length ? 'tool_calls' : 'stop';
      if (body.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const message = { role: 'assistant', content: answer.text ?? null, ...(calls.length ? { tool_calls: calls.map(({ index: _, ...c }) => c) } : {}) };
        res.end(JSON.stringify({ id, object: 'chat.completion', created: 0, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: Record<string, unknown>, finish_reason: string | null, extra: Record<string, unknown> = {}) =>
        res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason }], ...extra })}\n\n`);
      chunk({ role: 'assistant', content: '' }, null);
      if (answer.text) chunk({ content: answer.text }, null);
      if (calls.length) chunk({ tool_calls: calls }, null);
      chunk({}, finish, { usage });
      res.write('data: [DONE]\n\n');
      res.end();
      return;
    }
    if (req.method === 'GET' && /\/models$/.test(req.url ?? '')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model' }] }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"not found"}}');
  });
  return listenLocal(server, requests);
}
