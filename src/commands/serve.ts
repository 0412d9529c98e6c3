import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { isLoopback, serve } from '../serve/server.js';
import { findCodeRepo, openCodeRepo } from '../api/links/code-repo.js';
import { CtxError, UsageError } from '../errors/index.js';
import { defineCommand } from './command.js';

interface Flags {
  port: string;
  host: string;
  open?: boolean;
  code?: string;
}

export default defineCommand({
  name: 'serve',
  summary: 'a local read-only web view of the store: the branch graph, sessions, diffs, resume commands',
  description:
    'A read-only web view of the store on 127.0.0.1 (unless --host): every branch and fork as a graph, a commit\'s messages (thinking collapsed, tool calls with their results, images), the difference between two commits, search, file history, permalinks http://HOST:PORT/ctx-<id>, and the command that resumes a commit in each runtime. With a code repository (the work tree it starts in, or --code PATH): the diff of a code commit beside the contexts that made it (/code/<sha>), the code commits a context led to, and the blame of a file (/blame?file=PATH). Prints the URL on one line; stops on Ctrl-C (SIGINT) or SIGTERM.',
  args: [],
  options: [
    { flags: '--port <port>', description: 'the port; 0 picks a free one', default: '7420' },
    { flags: '--host <host>', description: 'the address to listen on (anything but 127.0.0.1 lets other machines read the store)', default: '127.0.0.1' },
    { flags: '--code <path>', description: 'the git work tree whose commits the code pages show (default: the one ctx serve starts in)' },
    { flags: '--open', description: 'open the page in the browser (xdg-open, open or start)' },
  ],
  examples: ['ctx serve', 'ctx serve --port 0 --open', 'ctx --store ~/team/.ctx serve --port 8080', 'ctx serve --code ~/src/app'],
  async run(io, _args: [], flags: Flags) {
    if (!/^\d{1,5}$/.test(flags.port) || Number(flags.port) > 65535) throw new UsageError(`--port takes a port number (0 to 65535), not '${flags.port}'`);
    // the store and the code repository must be there before anything listens
    const code = flags.code !== undefined ? openCodeRepo(resolve(io.cwd, flags.code), io.env) : findCodeRepo(io.cwd, io.env);
    await io.withRepo(false, async () => {});
    const serving = await serve({ host: flags.host, port: Number(flags.port), code, withRepo: (body) => io.withRepo(false, body), cwd: io.cwd, note: (l) => io.note(l) }).catch((e: NodeJS.ErrnoException) => {
      throw e.code === 'EADDRINUSE' || e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES' || e.code === 'ENOTFOUND' ? new CtxError(`cannot listen on ${flags.host} port ${flags.port}: ${e.code}`) : e;
    });
    // listening for the signals before the URL is out: whoever reads it may stop us at once
    const stopped = new Promise<string>((stop) => {
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    io.out(`${serving.url}\n`);
    if (!isLoopback(flags.host)) io.note(`ctx serve: listening on ${flags.host}: whoever reaches it reads every session in the store`);
    if (flags.open) openBrowser(serving.url, io.env, (l) => io.note(l));
    const signal = await stopped;
    await serving.close();
    io.note(`ctx serve: stopped (${signal})`);
    return { url: serving.url };
  },
  print() {},
});

/** The platform's opener, when there is one; else a line saying to open the URL by hand. */
function openBrowser(url: string, env: NodeJS.ProcessEnv, note: (line: string) => void): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(cmd, args as string[], { env, stdio: 'ignore', detached: true });
  child.on('error', () => note(`ctx serve: ${cmd} is not here to open the page: open ${url} yourself`));
  child.unref();
}
