// A mock of the Gemini API on 127.0.0.1 for the real `gemini` CLI (GOOGLE_GEMINI_BASE_URL): every
// request is recorded; streamGenerateContent answers with the next scripted turn as server-sent
// events, generateContent (the CLI's side calls) with a short text, countTokens with a count.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the model says in one turn: Gemini API parts (`{text}`, `{functionCall: {name, args}}`), or the parts and the prompt's size it reports. */
export type Turn = Record<string, unknown>[] | { parts: Record<string, unknown>[]; promptTokenCount: number };

/** The summary the mock writes when Gemini CLI asks for one (its compression prompt asks for a <state_snapshot>). */
export const MOCK_SNAPSHOT = '<state_snapshot>\nThe user read notes.txt; it says hello.\n</state_snapshot>';

export interface Request {
  method: string;
  /** the path without the query: `/v1beta/models/<model>:streamGenerateContent` */
  path: string;
  body: Record<string, unknown>;
}

export interface MockGemini {
  url: string;
  requests: Request[];
  /** the bodies of the conversation's requests (streamGenerateContent), in order */
  turns(): Record<string, unknown>[];
  close(): Promise<void>;
}

/** `script(n, body)`: the parts of the n-th streamed answer (0-based). */
export async function startMockGemini(script: (n: number, body: Record<string, unknown>) => Turn): Promise<MockGemini> {
  const requests: Request[] = [];
  let streamed = 0;
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = (req.url ?? '').split('?')[0];
    requests.push({ method: req.method ?? '', path, body });
    if (path.endsWith(':streamGenerateContent')) {
      const turn = script(streamed++, body);
      const [parts, promptTokenCount] = Array.isArray(turn) ? [turn, 10] : [turn.parts, turn.promptTokenCount];
      const chunk = {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount, candidatesTokenCount: 5, totalTokenCount: promptTokenCount + 5 },
        modelVersion: 'gemini-2.5-pro',
      };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
      return;
    }
    if (path.endsWith(':countTokens')) return json(res, { totalTokens: 10 });
    if (path.endsWith(':generateContent')) {
      const text = JSON.stringify(body.systemInstruction ?? '').includes('state_snapshot') ? MOCK_SNAPSHOT : '{"complexity_reasoning":"mock","complexity_score":10}';
      return json(res, {
        candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      });
    }
    json(res, {}, 404);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    turns: () => requests.filter((r) => r.path.endsWith(':streamGenerateContent')).map((r) => r.body),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

function json(res: import('node:http').ServerResponse, value: unknown, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        done(text ? JSON.parse(text) : {});
      } catch {
        done({ raw: text });
      }
    });
  });
}
