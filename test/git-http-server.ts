// A real git server for the tests and the sync benchmark: `git http-backend` (git's own smart-HTTP
// CGI program) behind a small CGI bridge on 127.0.0.1. Each request runs one http-backend process.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface GitServer {
  /** http://127.0.0.1:PORT — repos are `${url}/<name>.git` under `root` */
  url: string;
  root: string;
  /** HTTP requests served since start (or the last reset) */
  requests(): number;
  reset(): void;
  close(): Promise<void>;
}

export interface GitServerOptions {
  /** require HTTP basic auth with this user and password */
  auth?: { user: string; password: string };
}

/** A bare repo under the server's root that accepts pushes over HTTP. */
export function createServedRepo(root: string, name: string): string {
  const dir = `${root}/${name}`;
  spawnSync('git', ['init', '-q', '--bare', dir], { stdio: 'ignore' });
  spawnSync('git', ['config', '-f', `${dir}/config`, 'http.receivepack', 'true']);
  return dir;
}

/** The bridge itself, in this process; it counts requests into `<root>/.requests`. */
export function serveGitHttp(root: string, opts: GitServerOptions = {}): Promise<GitServer> {
  let count = 0;
  const backend = spawnSync('git', ['--exec-path'], { encoding: 'utf8' }).stdout.trim() + '/git-http-backend';
  const server = createServer((req, res) => {
    // the file is the counter, so that a parent process may reset it
    let before = count;
    try {
      before = Number(readFileSync(join(root, '.requests'), 'utf8')) || 0;
    } catch {}
    count = before + 1;
    writeFileSync(join(root, '.requests'), String(count));
    if (process.env.GIT_SERVER_LOG) appendFileSync(process.env.GIT_SERVER_LOG, `${req.method} ${req.url}\n`);
    handle(req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(e));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let user: string | undefined;
    if (opts.auth) {
      const m = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      const [u, p] = m ? Buffer.from(m[1], 'base64').toString('utf8').split(/:(.*)/s) : [];
      if (u !== opts.auth.user || p !== opts.auth.password) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
        return void res.end('unauthorized\n');
      }
      user = u;
    }
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      GATEWAY_INTERFACE: 'CGI/1.1',
      REQUEST_METHOD: req.method,
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      // http-backend refuses receive-pack to anonymous users unless http.receivepack is true (it is)
      ...(user ? { REMOTE_USER: user } : {}),
      ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
    };
    // a repo with a `crafted-refs` file advertises extra ref names git itself would never serve
    const crafted = craftedRefs(root, env.PATH_INFO!);
    // every request header as HTTP_*: Git-Protocol (v2) and Content-Encoding (gzip bodies) matter
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') env[`HTTP_${k.toUpperCase().replace(/-/g, '_')}`] = v;
    // crafted names are added to the protocol v0 advertisement, so every client gets that one
    if (crafted) delete env.HTTP_GIT_PROTOCOL;
    const rewrite = crafted && req.method === 'GET' && /\/info\/refs$/.test(url.pathname) && url.search.includes('service=git-upload-pack') ? crafted : null;
    const cgi = spawn(backend, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    req.pipe(cgi.stdin);
    cgi.stdin.on('error', () => {});
    let head = Buffer.alloc(0);
    let started = false;
    const body: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (started) return void (rewrite ? body.push(chunk) : res.write(chunk));
      head = Buffer.concat([head, chunk]);
      const end = findHeaderEnd(head);
      if (end === null) return;
      started = true;
      let status = 200;
      let reason = 'OK';
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end.at).toString('latin1').split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') {
          status = Number(v.slice(0, 3));
          reason = v.slice(4) || reason;
        } else headers[k] = v;
      }
      if (rewrite) delete headers['Content-Length'];
      res.writeHead(status, reason, headers);
      if (rewrite) body.push(head.subarray(end.at + end.len));
      else res.write(head.subarray(end.at + end.len));
    });
    await new Promise<void>((done) => {
      cgi.on('close', () => {
        if (!started) res.writeHead(502).write(head);
        else if (rewrite) res.write(advertiseExtra(Buffer.concat(body), rewrite));
        res.end();
        done();
      });
    });
  }

  return new Promise((ready) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      ready({
        url: `http://127.0.0.1:${port}`,
        root,
        requests: () => count,
        reset: () => void writeFileSync(join(root, '.requests'), String((count = 0))),
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** `<repo>/crafted-refs`: lines `<name> <existing ref>`, each name advertised with that ref's object id. */
function craftedRefs(root: string, pathInfo: string): [string, string][] | null {
  const repo = /^\/[^/]+\.git/.exec(pathInfo)?.[0];
  if (!repo) return null;
  let text: string;
  try {
    text = readFileSync(join(root, repo, 'crafted-refs'), 'utf8');
  } catch {
    return null;
  }
  return text.split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]);
}

/** The v0 upload-pack advertisement (pkt-lines) with the crafted names added after the real refs. */
function advertiseExtra(buf: Buffer, extra: [string, string][]): Buffer {
  const lines: (Buffer | null)[] = [];
  for (let i = 0; i + 4 <= buf.length; ) {
    const len = parseInt(buf.toString('latin1', i, i + 4), 16);
    lines.push(len === 0 ? null : buf.subarray(i + 4, i + len));
    i += len === 0 ? 4 : len;
  }
  const oidOf = new Map<string, string>();
  for (const l of lines) if (l) oidOf.set(l.toString('latin1', 41).replace(/[\0\n].*$/s, ''), l.toString('latin1', 0, 40));
  const added = extra.map(([name, from]) => Buffer.from(`${oidOf.get(from)} ${name}\n`, 'latin1'));
  lines.splice(lines.lastIndexOf(null), 0, ...added);
  return Buffer.concat(lines.map((l) => (l === null ? Buffer.from('0000') : Buffer.concat([Buffer.from((l.length + 4).toString(16).padStart(4, '0')), l]))));
}

function findHeaderEnd(b: Buffer): { at: number; len: number } | null {
  const crlf = b.indexOf('\r\n\r\n');
  const lf = b.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { at: crlf, len: 4 };
  return lf >= 0 ? { at: lf, len: 2 } : null;
}

/**
 * The server in a child process, so that tests and benchmarks may block on spawnSync meanwhile.
 * This file is compiled with esbuild and run with `--serve ROOT [USER:PASSWORD]`.
 */
export async function startGitServer(root: string, opts: GitServerOptions = {}): Promise<GitServer> {
  const { buildSync } = await import('esbuild');
  const self = fileURLToPath(import.meta.url);
  const out = join(mkdtempSync(join(tmpdir(), 'ctx-git-server-')), 'server.mjs');
  buildSync({ entryPoints: [self], outfile: out, format: 'esm', platform: 'node', bundle: false, logLevel: 'error' });
  const child = spawn(process.execPath, [out, '--serve', root, ...(opts.auth ? [`${opts.auth.user}:${opts.auth.password}`] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((ok, fail) => {
    let text = '';
    child.stdout.on('data', (b: Buffer) => {
      text += b.toString('utf8');
      if (text.includes('\n')) ok(text.trim());
    });
    child.on('exit', (code) => fail(new Error(`git server exited ${code}`)));
  });
  const counter = join(root, '.requests');
  return {
    url,
    root,
    requests: () => Number(readFileSync(counter, 'utf8')),
    reset: () => writeFileSync(counter, '0'),
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done(); // closed already
        child.once('exit', () => done());
        child.kill();
        rmSync(dirname(out), { recursive: true, force: true });
      }),
  };
}

/** A served repo and its URL; `allowFilter`: the server answers partial clones (`uploadpack.allowFilter`). */
export interface ServedRepo {
  dir: string;
  url: string;
}

/** What a test file shares: one server for its tests, a PATH without git (sync through isomorphic-git), new repos. */
export interface GitServerFixture {
  server: GitServer;
  root: string;
  /** a PATH with node and nothing else */
  noGitPath: string;
  repo(name: string, opts?: { allowFilter?: boolean }): ServedRepo;
}

type Hook = (fn: () => Promise<void> | void) => void;

/**
 * One git server for the tests of a file (or describe block), started in `beforeAll` and stopped with
 * its temp dir in `afterAll`: the hooks are passed in, since this file also runs as the server, without vitest.
 */
export function gitServerFixture(hooks: { beforeAll: Hook; afterAll: Hook }, label: string): GitServerFixture {
  const f = {} as GitServerFixture;
  hooks.beforeAll(async () => {
    f.root = mkdtempSync(join(tmpdir(), `ctx-${label}-`));
    mkdirSync(join(f.root, 'srv'));
    f.server = await startGitServer(join(f.root, 'srv'));
    f.noGitPath = join(f.root, 'nogit-bin');
    mkdirSync(f.noGitPath);
    symlinkSync(process.execPath, join(f.noGitPath, 'node'));
  });
  hooks.afterAll(async () => {
    await f.server?.close();
    if (f.root) rmSync(f.root, { recursive: true, force: true });
  });
  f.repo = (name, opts = {}) => {
    const dir = createServedRepo(f.server.root, name);
    if (opts.allowFilter) spawnSync('git', ['config', '-f', `${dir}/config`, 'uploadpack.allowFilter', 'true']);
    return { dir, url: `${f.server.url}/${name}` };
  };
  return f;
}

if (process.argv[2] === '--serve' && process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [user, ...pw] = (process.argv[4] ?? '').split(':');
  const s = await serveGitHttp(process.argv[3], process.argv[4] ? { auth: { user, password: pw.join(':') } } : {});
  writeFileSync(join(process.argv[3], '.requests'), '0');
  process.stdout.write(`${s.url}\n`);
  // the parent's end of stdin closes when it dies: never outlive it
  process.stdin.on('end', () => process.exit(0)).resume();
}
