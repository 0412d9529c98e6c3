// A mock OpenAI Responses API on 127.0.0.1 (port 0) for the real Codex CLI: every POST …/responses
// is recorded and answered over SSE with the items the test's script gives for that request.
import { createServer, type Server } from 'node:http';
import { listenLocal, readBody } from './mock-http.js';

/** A Responses-API output item: `message`, `function_call`, … */
export type OutputItem = Record<string, unknown>;

export interface MockRequest {
  method: string;
  url: string;
  body: Record<string, unknown>;
}

export interface MockOpenAI {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** every POST to …/responses, in order */
  requests: MockRequest[];
  close(): Promise<void>;
}

/** The script: the request's body (and its index among the responses requests) → the items to answer with. */
export type Script = (body: Record<string, unknown>, n: number) => OutputItem[];

export const assistantText = (text: string): OutputItem => ({ type: 'message', role: 'assistant', id: `msg_${hash(text)}`, content: [{ type: 'output_text', text, annotations: [] }] });
export const functionCall = (callId: string, name: string, args: unknown): OutputItem => ({ type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: JSON.stringify(args) });

/** A tool call first (when the last input item is not a tool output), then `text`: one turn with one tool round trip. */
export function toolThenText(callId: (n: number) => string, args: unknown, text: (n: number) => string): Script {
  return (body, n) => {
    const input = Array.isArray(body.input) ? (body.input as Record<string, unknown>[]) : [];
    const last = input[input.length - 1];
    return last?.type === 'function_call_output' ? [assistantText(text(n))] : [functionCall(callId(n), 'exec_command', args)];
  };
}

/** `inputTokens(n)`: the input tokens the n-th response reports (past Codex's limit, it compacts). */
/** Codex's own compaction request: the summary prompt it sends as the last user message. */
export const isCompactionRequest = (body: Record<string, unknown>) => /CONTEXT CHECKPOINT COMPACTION/.test(JSON.stringify((body.input as unknown[] | undefined)?.at(-1) ?? ''));

export async function startMockOpenAI(script: Script, opts: { inputTokens?: (n: number) => number } = {}): Promise<MockOpenAI> {
  const requests: MockRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    if (process.env.MOCK_LOG) console.error("MOCK", req.method, req.url, raw.slice(0, 200));
    let body: Record<string, unknown> = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {}
    if (req.method === 'POST' && /\/responses$/.test(req.url ?? '')) {
      const n = requests.length;
      requests.push({ method: req.method, url: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const id = `resp_${n}`;
      const input = opts.inputTokens?.(n) ?? 10;
      const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      send('response.created', { response: { id } });
      for (const item of script(body, n)) send('response.output_item.done', { item });
      send('response.completed', { response: { id, usage: { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + 5 } } });
      res.end();
      return;
    }
    if (req.method === 'GET' && /\/models/.test(req.url ?? '')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ models: [] }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"not found"}}');
  });
  return listenLocal(server, requests);
}

function hash(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}
