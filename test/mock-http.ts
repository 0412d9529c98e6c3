// What the mock model APIs share: a server on 127.0.0.1 at a free port, and a request's body as text.
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on 127.0.0.1 (port 0); the API's base URL is `…/v1`. */
export async function listenLocal<R>(server: Server, requests: R[]): Promise<{ baseUrl: string; requests: R[]; close(): Promise<void> }> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => done(Buffer.concat(parts).toString('utf8')));
  });
}
