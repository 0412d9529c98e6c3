// A mock Anthropic Messages API on 127.0.0.1 for the real `claude` CLI: it records every request
// and answers from a script, streaming SSE as the real API does. The only mock the runtime tests use.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the model says: text, or a tool call. */
export type Reply = { text: string } | { tool: { name: string; input: unknown } };

export interface RecordedRequest {
  path: string;
  body: {
    model?: string;
    messages: { role: string; content: unknown }[];
    system?: unknown;
    tools?: unknown[];
    stream?: boolean;
    [k: string]: unknown;
  };
}

export interface MockApi {
  url: string;
  /** every /v1/messages request, in order */
  requests: RecordedRequest[];
  /** the conversation requests: those that carry tools (Claude Code's side calls, titles and the like, carry none) */
  turns(): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * `answer(request)` picks the reply for a conversation request; side requests (no tools: titles,
 * summaries of a /compact) get `sideText`.
 */
export async function startMockApi(answer: (req: RecordedRequest) => Reply, sideText = 'Summary: the user asked, the assistant answered.'): Promise<MockApi> {
  const requests: RecordedRequest[] = [];
  let n = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST' || !path.endsWith('/v1/messages')) {
        // count_tokens, models, anything else: a small valid answer
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(path.endsWith('count_tokens') ? '{"input_tokens":10}' : '{}');
        return;
      }
      let body: RecordedRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const rec = { path, body };
      requests.push(rec);
      const reply = Array.isArray(body.tools) && body.tools.length ? answer(rec) : { text: sideText };
      const id = `msg_mock_${++n}`;
      if (body.stream) stream(res, id, body.model ?? 'claude-mock', reply, n);
      else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model: body.model, content: [block(reply, n)], stop_reason: 'tool' in reply ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } }));
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    turns: () => requests.filter((r) => Array.isArray(r.body.tools) && r.body.tools.length > 0),
    close: () => new Promise((done) => server.close(() => done())),
  };
}

function block(reply: Reply, n: number) {
  return 'tool' in reply ? { type: 'tool_use', id: `toolu_mock_${n}`, name: reply.tool.name, input: reply.tool.input } : { type: 'text', text: reply.text };
}

function stream(res: ServerResponse, id: string, model: string, reply: Reply, n: number) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  if ('tool' in reply) {
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_mock_${n}`, name: reply.tool.name, input: {} } });
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.tool.input) } });
  } else {
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: reply.text } });
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool' in reply ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}
