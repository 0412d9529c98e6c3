// `ctx serve`: a read-only web view of the store on node's own http server. Only GET and HEAD;
// static files come from a fixed table read once at start (no path from a URL ever reaches the file
// system); the API answers with the records of the commands' --json output (routes.ts).
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { openRepo } from '../api/repo/open.js';
import type { RepoContext } from '../api/repo/repo-context.js';
import { CtxError, EXIT, NotFoundError } from '../errors/index.js';
import { api, isPageRoute, permalink, type Reply } from './routes.js';
import { MessageCache } from './messages.js';
import { codePageExists, codePermalink } from './links.js';
import { openCodeRepo, type CodeRepo } from '../api/links/code-repo.js';

export interface ServeOptions {
  /** runs one request with the store open (closed after it): refs moved by a writer are seen at once */
  withRepo: <T>(body: (repo: RepoContext) => Promise<T>) => Promise<T>;
  host: string;
  port: number;
  /** where a resumed session runs when its context names no directory */
  cwd: string;
  /** a line for people (a request that failed on something other than bad input) */
  note: (line: string) => void;
  /** the code repository whose commits the code pages show (null: none, those pages say so) */
  code?: CodeRepo | null;
  /** the built front end (index.html, app.js, style.css); default: dist/web beside this bundle */
  webDir?: string;
}

export interface Serving {
  server: Server;
  url: string;
  close(): Promise<void>;
}

const STATIC: Record<string, { file: string; type: string }> = {
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
  // for the browser's developer tools
  '/app.js.map': { file: 'app.js.map', type: 'application/json' },
};
const INDEX = { file: 'index.html', type: 'text/html; charset=utf-8' };

/** The page may load only its own files, and images from data: URLs (a transcript's screenshots). */
const HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function webDirectory(): string {
  // the command runs from a chunk (dist/chunks/) or from dist/ itself
  for (const rel of ['../web/', './web/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  throw new NotFoundError('the web view is not built (dist/web/index.html is missing): run npm run build');
}

export function serve(opts: ServeOptions): Promise<Serving> {
  const dir = opts.webDir ?? webDirectory();
  const files = new Map(Object.entries(STATIC).map(([path, f]) => [path, { body: readFileSync(dir + f.file), type: f.type }]));
  const index = { body: readFileSync(dir + INDEX.file), type: INDEX.type };
  const cache = new MessageCache();
  cache.warm();
  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!(e instanceof CtxError)) opts.note(`ctx serve: ${req.url}: ${e instanceof Error ? e.message : String(e)}`);
      send(res, req, failure(e));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, req, { status: 405, type: 'text/plain; charset=utf-8', body: 'read-only: GET and HEAD only\n', headers: { allow: 'GET, HEAD' } });
    // a page elsewhere cannot reach the store through a name that resolves to 127.0.0.1 (DNS rebinding)
    if (!hostAllowed(req.headers.host, opts.host)) return send(res, req, { status: 403, type: 'text/plain; charset=utf-8', body: `this server answers to ${opts.host} only\n` });
    const url = parseUrl(req.url);
    if (url === null) return send(res, req, notFound());
    const file = files.get(url.pathname);
    if (file) return send(res, req, { status: 200, ...file });
    if (!isPageRoute(url.pathname) && !url.pathname.startsWith('/api/')) return send(res, req, notFound());
    // a page on another site may link here, but not read or load the API (an <img>, a form, a fetch)
    const refused = crossSite(req.headers);
    if (refused !== null && url.pathname.startsWith('/api/')) return send(res, req, forbidden(refused));
    const reply = await opts.withRepo(async (repo) => {
      if (url.pathname.startsWith('/api/')) return api(repo, cache, url, opts.cwd, opts.code ?? null);
      // a permalink to no commit is a 404 (the page says so)
      const id = permalink(url.pathname);
      const sha = codePermalink(url.pathname);
      const found = id !== null ? await exists(repo, id) : sha !== null ? await codePageExists(opts.code ?? null, sha) : true;
      return { status: found ? 200 : 404, ...index };
    });
    send(res, req, reply);
    // the page will ask for this commit's messages next: their read starts now, with a store of its own
    const id = permalink(url.pathname);
    if (id !== null && reply.status === 200 && req.method === 'GET' && refused === null) void opts.withRepo((repo) => cache.get(repo, id, url.searchParams.get('stop') ?? undefined)).catch(() => {});
  }

  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(opts.port, opts.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
      done({
        server,
        url: `http://${host}:${port}/`,
        close: () => new Promise<void>((closed) => {
          server.close(() => closed());
          server.closeAllConnections();
        }),
      });
    });
  });
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether `--host` is this machine only. */
export const isLoopback = (host: string) => LOOPBACK.has(host) || host === '::1';

/** On a loopback address, the Host header must name this machine (with any port); on another address (--host), anything. */
export function hostAllowed(header: string | undefined, listening: string): boolean {
  if (!isLoopback(listening)) return true;
  const name = /^(\[[^\]]*\]|[^:]*)(:\d+)?$/.exec(header ?? '')?.[1].toLowerCase();
  return name !== undefined && LOOPBACK.has(name);
}

/**
 * Why a request comes from a page on another site, or null when it does not: the browser's
 * Sec-Fetch-Site (same-origin, or none for an address typed or bookmarked; absent outside a browser),
 * and its Origin when sent, which must be this server's own (the Host it was asked by).
 */
export function crossSite(headers: IncomingMessage['headers']): string | null {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site: ${site}`;
  const origin = headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${headers.host ?? ''}`.toLowerCase()) return `Origin: ${origin}`;
  return null;
}

function forbidden(why: string): Reply {
  return { status: 403, type: 'application/json', body: `${JSON.stringify({ v: 1, error: 'CrossSiteRequest', message: `a page on another site may not use this server's API (${why})` })}\n` };
}

/** The library's `ctx serve`: the store at `path` served until `close()` (127.0.0.1:7420 unless told); `code`: a work tree for the code pages. */
export async function serveStore(path: string, opts: { host?: string; port?: number; env?: NodeJS.ProcessEnv; cwd?: string; code?: string; note?: (line: string) => void } = {}): Promise<Serving> {
  const open = () => openRepo({ store: path, env: opts.env, cwd: opts.cwd }).repo;
  await open().close(); // the store must be there before anything listens
  return serve({
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 7420,
    cwd: opts.cwd ?? process.cwd(),
    code: opts.code === undefined ? null : openCodeRepo(opts.code, opts.env ?? process.env),
    note: opts.note ?? ((line) => process.stderr.write(`${line}\n`)),
    withRepo: async (body) => {
      const repo = open();
      try {
        return await body(repo);
      } finally {
        await repo.close();
      }
    },
  });
}

/**
 * The request's path and query; null for anything odd: not an origin-form path, `..` or `.`
 * segments (raw or %-encoded), backslashes, NUL, bad %-escapes.
 */
export function parseUrl(raw: string | undefined): URL | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw.split('?')[0]);
  } catch {
    return null;
  }
  if (/[\\\0]/.test(decoded) || decoded.split('/').some((s) => s === '..' || s === '.')) return null;
  try {
    return new URL(raw, 'http://localhost');
  } catch {
    return null;
  }
}

async function exists(repo: RepoContext, id: string): Promise<boolean> {
  try {
    await repo.resolve(id);
    return true;
  } catch (e) {
    if (e instanceof NotFoundError) return false;
    throw e;
  }
}

function notFound(): Reply {
  return { status: 404, type: 'text/plain; charset=utf-8', body: 'not found\n' };
}

/** A CtxError is the CLI's --json error record with the status its exit code maps to; anything else a 500 without details. */
function failure(e: unknown): Reply {
  if (!(e instanceof CtxError)) return { status: 500, type: 'application/json', body: `${JSON.stringify({ v: 1, error: 'InternalError', message: 'the server failed on this request' })}\n` };
  const status = e.exit === EXIT.notFound ? 404 : e.exit === EXIT.usage || e.code === 'AmbiguousIdError' || e.code === 'BadInputError' ? 400 : 500;
  return { status, type: 'application/json', body: `${JSON.stringify(e.toJSON())}\n` };
}

function send(res: ServerResponse, req: IncomingMessage, r: Reply): void {
  if (res.headersSent) return void res.end();
  const body = typeof r.body === 'string' ? Buffer.from(r.body) : r.body;
  res.writeHead(r.status, { ...HEADERS, 'content-type': r.type, 'content-length': body.length, ...r.headers });
  res.end(req.method === 'HEAD' ? undefined : body);
}
